export {
  createSessionSearchIndex,
  type SessionSearchHit,
  type SessionSearchIndex,
  type SessionSearchOptions,
  snippetOf,
} from './session-search-index.js';
export { createSessionTools } from './session-tools.js';
