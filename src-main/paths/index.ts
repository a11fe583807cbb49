// Where Hearth keeps its state: a floor below every capability (which receive HearthPaths as a
// parameter) and the config (which only says where an agent's workspace is).
export {
  configuredWorkspace,
  createHearthPaths,
  type HearthPaths,
  isWorkspacePath,
  resolveHearthHome,
} from './hearth-paths.js';
