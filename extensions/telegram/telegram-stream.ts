import type { ChannelReplyStream, ChannelTarget } from '../../src-main/plugins/sdk/index.js';
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
    const replyTo = target.replyToMessageId
      ? { reply_parameters: { message_id: Number(target.replyToMessageId), allow_sending_without_reply: true } }
      : {};
    return (await api.call<SentMessage>('sendMessage', { ...base, text, ...extra, ...replyTo })).message_id;
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
 * A streamed reply as one message edited in place. The first text is sent at once (the person
 * sees the answer start); later texts are coalesced into at most one edit per `editIntervalMs`,
 * as plain text (half-written markdown would not parse). `end` renders the final text as
 * MarkdownV2, in the same message, then further messages if it is longer than one may be.
 * A 429 is waited out inside the API client; calls for one reply never overlap, so edits land in order.
 */
export function startTelegramStream(
  api: TelegramApi,
  target: ChannelTarget,
  options: { editIntervalMs: number; onError(error: unknown): void },
): ChannelReplyStream {
  let messageId: number | undefined;
  let shown = '';
  let latest = '';
  let lastCallAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let ended = false;

  const preview = (text: string) =>
    text.length <= TELEGRAM_MAX_MESSAGE ? text : `${text.slice(0, TELEGRAM_MAX_MESSAGE - 1)}…`;

  const push = () => {
    timer = undefined;
    chain = chain.then(async () => {
      if (ended || latest === shown || latest.trim() === '') return;
      // What this call shows: more text may arrive while it is on the wire, and must still be sent.
      const sending = latest;
      const text = preview(sending);
      lastCallAt = Date.now();
      try {
        if (messageId === undefined) {
          const replyTo = target.replyToMessageId
            ? { reply_parameters: { message_id: Number(target.replyToMessageId), allow_sending_without_reply: true } }
            : {};
          messageId = (await api.call<SentMessage>('sendMessage', { chat_id: Number(target.peerId), text, ...replyTo }))
            .message_id;
        } else {
          await api.call('editMessageText', { chat_id: Number(target.peerId), message_id: messageId, text });
        }
        shown = sending;
      } catch (error) {
        if (isUnchanged(error)) shown = sending;
        else options.onError(error);
      }
    });
  };

  return {
    update(textSoFar) {
      if (ended) return;
      latest = textSoFar;
      if (timer) return;
      const wait = messageId === undefined && lastCallAt === 0 ? 0 : lastCallAt + options.editIntervalMs - Date.now();
      if (wait <= 0) push();
      else timer = setTimeout(push, wait);
    },
    async end(finalText) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain;
      ended = true;
      const parts = splitForTelegram(finalText.trim() === '' ? '(no reply)' : finalText, SOURCE_PART);
      const wait = lastCallAt + options.editIntervalMs - Date.now();
      if (messageId !== undefined && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      let id = messageId;
      for (const part of parts) {
        await sendRendered(api, target, part, id);
        id = undefined;
      }
    },
  };
}
