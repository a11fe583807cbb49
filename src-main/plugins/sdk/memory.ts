import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for memory backends (src-main/memory). The capability that owns them refines `MemoryBackendService`
// (a type-only re-export from the capability is fine: extensions still see only the SDK).
export type MemoryBackendService = unknown;
export type MemoryBackendContribution = Contribution<MemoryBackendService, PluginServiceContext>;
