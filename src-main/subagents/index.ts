export { createSubagents, type SpawnInput, type SpawnResult, type Subagents, type SubagentsDeps } from './subagents.js';
export {
  DEFAULT_MAX_DEPTH,
  type SubagentsConfig,
  type SubagentsSettings,
  subagentsConfigSchema,
  subagentsSettings,
} from './subagents-config.js';
