// Files the agent sends out through a channel (`outbound.sendFile`): a photo or a document from
// the agent's workspace. The host reads the file (only from the workspace) and checks its size
// against `capabilities.maxUploadBytes` before the plugin sees it; the plugin uploads it the way
// its platform takes files (Telegram sendPhoto / sendDocument, Discord multipart, Slack's external
// upload) and may refuse with an Error that says why.

export type { ChannelOutboundFile } from './channels.js';

/** Megabytes as people read them in a message ("over Discord's 10 MB"). */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
