export { type AttachmentDownloadOptions, type AttachmentRef, downloadAttachments } from './attachment-downloads.js';
export {
  type ChannelAgentTool,
  type ChannelAgentToolsAdapter,
  type ChannelConversation,
  chatOfConversation,
  defineChannelAgentTool,
  messageInConversation,
} from './channel-agent-tools.js';
export { type ChannelCommand, type ChannelCommandOption, commandText } from './channel-commands.js';
export { type ChannelOutboundFile, formatMegabytes } from './channel-files.js';
export {
  type ChannelAttachment,
  type ChannelButton,
  type ChannelButtonPress,
  type ChannelButtonsAdapter,
  type ChannelCapabilities,
  type ChannelConfigAdapter,
  type ChannelContribution,
  type ChannelDirectoryAdapter,
  type ChannelHealth,
  type ChannelIdFormat,
  type ChannelInboundMessage,
  type ChannelMediaKind,
  type ChannelMeta,
  type ChannelOutboundAdapter,
  type ChannelPeerKind,
  type ChannelPlugin,
  type ChannelPrompt,
  type ChannelReplyStream,
  type ChannelSecretSpec,
  type ChannelService,
  type ChannelSetupAdapter,
  type ChannelSetupField,
  type ChannelSetupFieldKind,
  type ChannelStartContext,
  type ChannelState,
  type ChannelStorage,
  type ChannelStreamingAdapter,
  type ChannelTarget,
  type ChannelWebhook,
  type ChannelWebhookRequest,
  type ChannelWebhookResponse,
  type DmPolicy,
  defineChannel,
  dmPolicies,
  type MarkdownDialect,
  type RunningChannel,
} from './channels.js';
export type {
  CliAccess,
  CliBackendContribution,
  CliBackendService,
  CliInvocation,
  CliStreamEvent,
  CliStreamParser,
  CliTurnInput,
} from './cli-backends.js';
export type { ContextEngineContribution, ContextEngineService } from './context.js';
export type { Contribution, PluginServiceContext } from './contributions.js';
export { type EditInPlaceOptions, startEditInPlaceStream } from './edit-in-place-stream.js';
export type { MemoryBackendContribution, MemoryBackendService } from './memory.js';
export {
  type BootstrapFilesHook,
  definePlugin,
  type HearthPlugin,
  type HearthPluginApi,
  type PluginMethodContribution,
} from './plugin-api.js';
export type { ModelProviderContribution, ModelProviderService } from './providers.js';
export {
  fetchWithin,
  type RateLimitLimits,
  type RateLimitOptions,
  redactSecret,
  sleep,
  withRateLimitRetries,
} from './rate-limited-api.js';
export { Backoff, retryUntilAnswered } from './reconnect-backoff.js';
export type { ToolContext, ToolDefinition, ToolOutput } from './tools.js';
