import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for model providers (src-main/providers). A plugin contributes a `ModelProviderService`
// (an AI SDK adapter keyed by `kind`); the host registers it in the provider registry.
export type {
  ModelProviderService,
  ProviderCredential,
  ProviderModelSettings,
  SdkLanguageModel,
} from '../../providers/provider-registry.js';

import type { ModelProviderService } from '../../providers/provider-registry.js';
export type ModelProviderContribution = Contribution<ModelProviderService, PluginServiceContext>;
