export {
  type BootstrapFile,
  type BootstrapLoader,
  type BootstrapLoaderOptions,
  type BootstrapLoadInput,
  type BootstrapResult,
  createBootstrapLoader,
  type FileProbe,
  nodeFileProbe,
} from './bootstrap-loader.js';
export { type SeedWorkspaceResult, seedWorkspace } from './seed-workspace.js';
export { buildSystemPrompt, type SystemPromptInput } from './system-prompt.js';
export {
  DEFAULT_BOOTSTRAP_MAX_CHARS,
  DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
  truncateBootstrapText,
} from './truncate-bootstrap.js';
export { createTruncationWarner, type TruncationWarner, type TruncationWarningMode } from './truncation-warning.js';
export {
  BOOTSTRAP_FILE_ORDER,
  type BootstrapFilesHook,
  type BootstrapRunKind,
  type BootstrapSelection,
  type BootstrapSessionKind,
  MINIMAL_BOOTSTRAP_ALLOWLIST,
  PERSONAL_BOOTSTRAP_FILES,
  placePersonalFiles,
  selectBootstrapFiles,
  WORKSPACE_TEMPLATE_FILES,
} from './workspace-files.js';
