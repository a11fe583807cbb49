export { applyMergePatch, changedPaths, prefixMatches } from './config-diff.js';
export {
  defaultConfig,
  gatewayConfigSchema,
  type HearthConfig,
  type HearthConfigFile,
  hearthConfigFileSchema,
  hearthConfigSchema,
  pluginsConfigSchema,
} from './config-schema.js';
export {
  type ConfigChange,
  ConfigConflictError,
  ConfigService,
  type ConfigSnapshot,
  ConfigValidationError,
} from './config-service.js';
export { type ConfigProblem, formatProblems, validateConfigText, validateConfigValue } from './config-validation.js';
