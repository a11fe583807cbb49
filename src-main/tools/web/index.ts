export { type AddressKind, type AddressPolicy, addressKind, createAddressPolicy } from './address-policy.js';
export { htmlToMarkdown, type ReadablePage } from './html-to-markdown.js';
export { type ResolveAll, type ResolvedAddress, safeFetch, systemResolveAll, WebFetchError } from './safe-fetch.js';
export { type WebToolsConfig, webToolsConfigSchema } from './web-config.js';
export { createWebFetchTool, type WebFetchDeps, type WebFetchInput } from './web-fetch-tool.js';
export {
  braveSearchProvider,
  createWebSearchTool,
  type SearchProvider,
  type SearchResult,
  searxngSearchProvider,
  WebSearchError,
} from './web-search-tool.js';

/** The stable names of the web tools, for the catalogue and config. */
export const webToolNames = ['web_fetch', 'web_search'] as const;
