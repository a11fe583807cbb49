export { applyMergePatch, changedPaths, prefixMatches } from './config-diff.js';
export {
  type ConfigChange,
  ConfigConflictError,
  ConfigService,
  type ConfigSnapshot,
  ConfigValidationError,
} from './config-service.js';
export {
  asWrittenSchema,
  type ConfigProblem,
  type ConfigValidation,
  formatProblems,
  validateConfigText,
  validateConfigValue,
} from './config-validation.js';
