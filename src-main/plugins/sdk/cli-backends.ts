import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for CLI backends (external coding agents driven as models). The capability that owns them refines `CliBackendService`
// (a type-only re-export from the capability is fine: extensions still see only the SDK).
export type CliBackendService = unknown;
export type CliBackendContribution = Contribution<CliBackendService, PluginServiceContext>;
