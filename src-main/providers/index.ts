export {
  type AuthProbeOutcome,
  type AuthProber,
  type AuthProberDeps,
  createAuthProber,
  defaultProbeCooldownMs,
} from './auth/auth-probe.js';
export {
  type AuthProbeRecord,
  type AuthProfile,
  AuthProfileError,
  type AuthProfileHealth,
  type AuthProfileStats,
  type AuthProfileStatus,
  type AuthProfileType,
  cooldownStepsMs,
  type OAuthSecret,
  orderProfiles,
  secretAccount,
} from './auth/auth-profile.js';
export { authProfilesPath } from './auth/auth-profile-file.js';
export {
  type AuthProfileManager,
  type AuthProfileManagerDeps,
  createAuthProfileManager,
  type OAuthRefresher,
  type SetAuthProfileInput,
} from './auth/auth-profile-manager.js';
export { type AwsCredentials, signAwsRequest } from './aws-sigv4.js';
export { builtinProviders, registerBuiltinProviders } from './builtin-providers.js';
export { classifyFailure, type FailureClassification } from './classify-failure.js';
export {
  describeFailoverReason,
  FailoverError,
  type FailoverErrorOptions,
  type FailoverReason,
  failoverReasons,
  isFailoverError,
} from './failover-error.js';
export {
  defaultLocalServerHosts,
  detectLocalServers,
  type LocalServerFound,
  type LocalServerHost,
  localServerHostsFrom,
} from './local-servers.js';
export {
  createModelCatalog,
  defaultModelLimits,
  type ModelCatalog,
  type ModelCatalogDeps,
  type ModelCatalogEntry,
  type ResolvedModelLimits,
} from './model-catalog.js';
export {
  createModelFactory,
  type ModelFactory,
  type ModelFactoryDeps,
  ModelResolutionError,
  type ResolvedProvider,
} from './model-factory.js';
export { formatModelRef, type ModelRef, ModelRefError, parseModelRef } from './model-ref.js';
export {
  type AgentsWithModels,
  modelSelectionInputSchema,
  resolveModelSelection,
} from './model-selection.js';
export { defaultOllamaHost, detectOllama, type OllamaDetection, type OllamaDetectOptions } from './ollama-detect.js';
export {
  type AuthConfig,
  type AuthProfileConfig,
  agentModelConfigSchema,
  authConfigSchema,
  authProfileConfigSchema,
  type ModelLimits,
  type ModelSelection,
  modelLimitsSchema,
  modelSelectionSchema,
  ProviderConfigError,
  type ProviderEntry,
  type ProviderKind,
  type ProvidersConfig,
  parseRuntimeConfig,
  providerEntrySchema,
  providerKinds,
  providersConfigSchema,
  type RuntimeConfig,
  runtimeConfigSchema,
} from './provider-config.js';
export {
  awsCredentialsFromSecret,
  defaultBaseURLs,
  type ListProviderModelsInput,
  listProviderModels,
  type ModelListing,
  type ModelListingProblem,
  type SetupFieldProblem,
  setupFieldProblem,
} from './provider-models.js';
export {
  createProviderRegistry,
  type ModelProviderService,
  type ProviderCredential,
  type ProviderModelSettings,
  type ProviderRegistry,
  type SdkLanguageModel,
} from './provider-registry.js';
export { streamCompletion } from './stream-completion.js';
export { cannedWarmUpResponse, createWarmUpFetch, warmUpKinds } from './warm-up-fetch.js';
