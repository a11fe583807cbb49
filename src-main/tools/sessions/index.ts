export {
  createSessionSearchIndex,
  type SessionSearchHit,
  type SessionSearchIndex,
  type SessionSearchOptions,
  snippetOf,
} from './session-search-index.js';
export { createSessionTools } from './session-tools.js';
export { createSessionsSendTool } from './sessions-send-tool.js';
export { createSubagentTools } from './subagent-tools.js';
