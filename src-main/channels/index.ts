// The channel host: runs channel plugins, gates senders (DM policy, pairing), turns their
// messages into chat turns and streams the replies back (docs/CHANNELS.md).

export { APPROVAL_WORDS, type ChannelLanguage, channelLanguage } from './channel-approval-words.js';
export { ChannelApprovals } from './channel-approvals.js';
export {
  type ChannelChat,
  ChannelHost,
  type ChannelHostDeps,
  type ChannelIdentityView,
  type ChannelStatusView,
  pairingInstruction,
  type RegisteredChannel,
} from './channel-host.js';
export { type Dock, OWNER_PERSON } from './channel-identity.js';
export { type ChannelHostSettings, splitChannelConfig, updateHostSettings } from './channel-settings.js';
export { describeSetup, planSetup, type SetupFieldState, type SetupPlan, setupOf } from './channel-setup.js';
export {
  PAIRING_CODE_LENGTH,
  PAIRING_MAX_PENDING,
  PAIRING_TTL_MS,
  type PairedSender,
  PairingCodeError,
  type PairingRequest,
  PairingStore,
} from './pairing-store.js';
export { createChannelSendFileTool, type SendChannelFile } from './send-file-tool.js';
