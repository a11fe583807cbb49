import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for model providers (src-main/providers). The capability that owns them refines `ModelProviderService`
// (a type-only re-export from the capability is fine: extensions still see only the SDK).
export type ModelProviderService = unknown;
export type ModelProviderContribution = Contribution<ModelProviderService, PluginServiceContext>;
