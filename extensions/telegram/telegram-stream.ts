import {
  type ChannelReplyStream,
  type ChannelTarget,
  startEditInPlaceStream,
} from '../../src-main/plugins/sdk/index.js';
import type { TelegramApi } from './telegram-api.js';
import { TelegramApiError } from './telegram-api.js';
import { splitForTelegram, toTelegramMarkdownV2 } from './telegram-markdown.js';

export const TELEGRAM_MAX_MESSAGE = 4096;
/** Source text per message: leaves room for MarkdownV2 escapes within Telegram's 4096. */
const SOURCE_PART = 3500;

interface SentMessage {
  message_id: number;
}

const isUnchanged = (error: unknown) =>
  error instanceof TelegramApiError && error.code === 400 && /message is not modified/.test(error.description);
const isParseError = (error: unknown) =>
  error instanceof TelegramApiError && error.code === 400 && /can't parse entities|too long/.test(error.description);

/** A reply quotes the message it answers (groups), and is still sent if that one is gone. */
const replyParameters = (target: ChannelTarget) =>
  target.replyToMessageId
    ? { reply_parameters: { message_id: Number(target.replyToMessageId), allow_sending_without_reply: true } }
    : {};

/** Sends one rendered part with MarkdownV2, falling back to plain text if Telegram refuses the markup. */
async function sendRendered(
  api: TelegramApi,
  target: ChannelTarget,
  source: string,
  messageId: number | undefined,
): Promise<number> {
  const rendered = toTelegramMarkdownV2(source);
  const base = { chat_id: Number(target.peerId) };
  const send = async (text: string, markup: boolean) => {
    const extra = markup ? { parse_mode: 'MarkdownV2' } : {};
    if (messageId !== undefined) {
      await api.call('editMessageText', { ...base, message_id: messageId, text, ...extra });
      return messageId;
    }
    return (await api.call<SentMessage>('sendMessage', { ...base, text, ...extra, ...replyParameters(target) }))
      .message_id;
  };
  try {
    return await send(
      rendered.length <= TELEGRAM_MAX_MESSAGE ? rendered : source,
      rendered.length <= TELEGRAM_MAX_MESSAGE,
    );
  } catch (error) {
    if (isUnchanged(error)) return messageId!;
    if (!isParseError(error)) throw error;
    try {
      return await send(source.slice(0, TELEGRAM_MAX_MESSAGE), false);
    } catch (second) {
      if (isUnchanged(second)) return messageId!;
      throw second;
    }
  }
}

/** Sends a whole reply: MarkdownV2, split into several messages when it is long. */
export async function sendTelegramText(api: TelegramApi, target: ChannelTarget, text: string): Promise<number> {
  let first: number | undefined;
  for (const part of splitForTelegram(text, SOURCE_PART)) {
    const id = await sendRendered(api, target, part, undefined);
    first ??= id;
  }
  return first!;
}

/**
 * A streamed reply as one message edited in place (the SDK's edit-in-place stream): previews go
 * out as plain text (half-written markdown would not parse), coalesced into at most one edit per
 * `editIntervalMs`; `end` renders the final text as MarkdownV2 in the same message, then further
 * messages if it is longer than one may be. A 429 is waited out inside the API client.
 */
export function startTelegramStream(
  api: TelegramApi,
  target: ChannelTarget,
  options: { editIntervalMs: number; onError(error: unknown): void },
): ChannelReplyStream {
  const chat = { chat_id: Number(target.peerId) };
  return startEditInPlaceStream<number>({
    ...options,
    preview: (text) => (text.length <= TELEGRAM_MAX_MESSAGE ? text : `${text.slice(0, TELEGRAM_MAX_MESSAGE - 1)}…`),
    send: async (text) =>
      (await api.call<SentMessage>('sendMessage', { ...chat, text, ...replyParameters(target) })).message_id,
    edit: async (messageId, text) => {
      await api.call('editMessageText', { ...chat, message_id: messageId, text });
    },
    isUnchanged,
    finalParts: (text) => splitForTelegram(text, SOURCE_PART),
    editFinal: async (messageId, part) => {
      await sendRendered(api, target, part, messageId);
    },
    sendFinal: async (part) => {
      await sendRendered(api, target, part, undefined);
    },
  });
}
