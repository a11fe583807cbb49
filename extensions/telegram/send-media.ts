import type { ChannelOutboundFile, ChannelTarget } from '../../src-main/plugins/sdk/index.js';
import type { TelegramApi } from './telegram-api.js';

// Files out (https://core.telegram.org/bots/api#sending-files): multipart uploads of at most
// 50 MB with sendDocument, photos (shown inline, recompressed) of at most 10 MB with sendPhoto.
// A bigger image goes as a document. The caption (at most 1024 characters) is sent as plain
// text: no markup to get wrong.

export const TELEGRAM_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const TELEGRAM_MAX_PHOTO_BYTES = 10 * 1024 * 1024;
const MAX_CAPTION = 1024;

export async function sendTelegramFile(
  api: TelegramApi,
  target: ChannelTarget,
  file: ChannelOutboundFile,
): Promise<number> {
  if (file.data.length > TELEGRAM_MAX_UPLOAD_BYTES)
    throw new Error(`${file.name} is over Telegram's 50 MB limit for a bot's file`);
  const asPhoto = file.kind === 'image' && file.data.length <= TELEGRAM_MAX_PHOTO_BYTES;
  const caption = file.caption
    ? file.caption.length <= MAX_CAPTION
      ? file.caption
      : `${file.caption.slice(0, MAX_CAPTION - 1)}…`
    : undefined;
  const sent = await api.upload<{ message_id: number }>(
    asPhoto ? 'sendPhoto' : 'sendDocument',
    { chat_id: Number(target.peerId), ...(caption ? { caption } : {}) },
    { field: asPhoto ? 'photo' : 'document', name: file.name, mediaType: file.mediaType, data: file.data },
  );
  return sent.message_id;
}
