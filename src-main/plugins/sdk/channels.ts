import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for channels (Telegram, webhook…). The capability that owns them refines `ChannelService`
// (a type-only re-export from the capability is fine: extensions still see only the SDK).
export type ChannelService = unknown;
export type ChannelContribution = Contribution<ChannelService, PluginServiceContext>;
