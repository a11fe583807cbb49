// The channel host: runs channel plugins, gates senders (DM policy, pairing), turns their
// messages into chat turns and streams the replies back (docs/CHANNELS.md).
export {
  type ChannelChat,
  ChannelHost,
  type ChannelHostDeps,
  type ChannelStatusView,
  pairingInstruction,
  type RegisteredChannel,
} from './channel-host.js';
export { type ChannelHostSettings, splitChannelConfig } from './channel-settings.js';
export {
  PAIRING_CODE_LENGTH,
  PAIRING_MAX_PENDING,
  PAIRING_TTL_MS,
  type PairedSender,
  PairingCodeError,
  type PairingRequest,
  PairingStore,
} from './pairing-store.js';
