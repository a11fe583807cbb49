export type { ChannelContribution, ChannelService } from './channels.js';
export type { CliBackendContribution, CliBackendService } from './cli-backends.js';
export type { ContextEngineContribution, ContextEngineService } from './context.js';
export type { Contribution, PluginServiceContext } from './contributions.js';
export type { MemoryBackendContribution, MemoryBackendService } from './memory.js';
export {
  type BootstrapFilesHook,
  definePlugin,
  type HearthPlugin,
  type HearthPluginApi,
  type PluginMethodContribution,
} from './plugin-api.js';
export type { ModelProviderContribution, ModelProviderService } from './providers.js';
export type { ToolContext, ToolDefinition, ToolOutput } from './tools.js';
