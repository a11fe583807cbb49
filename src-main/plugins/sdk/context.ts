import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for context engines (src-main/agent/context). The capability that owns them refines `ContextEngineService`
// (a type-only re-export from the capability is fine: extensions still see only the SDK).
export type ContextEngineService = unknown;
export type ContextEngineContribution = Contribution<ContextEngineService, PluginServiceContext>;
