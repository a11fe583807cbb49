export { type AddressKind, type AddressPolicy, addressKind, createAddressPolicy } from './address-policy.js';
export { htmlToMarkdown, type ReadablePage } from './html-to-markdown.js';
export { type ResolveAll, type ResolvedAddress, safeFetch, systemResolveAll, WebFetchError } from './safe-fetch.js';
export {
  BRAVE_DEFAULT_SECRET,
  type WebSearchConfig,
  type WebToolsConfig,
  webSearchConfigSchema,
  webToolsConfigSchema,
} from './web-config.js';
export { createWebFetchTool, type WebFetchDeps, type WebFetchInput } from './web-fetch-tool.js';
export {
  braveSearchProvider,
  configuredSearchProvider,
  createWebSearchTool,
  type SearchProvider,
  type SearchResult,
  type SearchSecretSource,
  searxngSearchProvider,
  WebSearchError,
} from './web-search-tool.js';

/** The stable names of the web tools, for the catalogue and config. */
export const webToolNames = ['web_fetch', 'web_search'] as const;
