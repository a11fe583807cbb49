import type { ChannelReplyStream, ChannelTarget } from '../../src-main/plugins/sdk/index.js';
import { DISCORD_MAX_MESSAGE, splitForDiscord, toDiscordMarkdown } from './discord-markdown.js';
import type { DiscordFile, DiscordRest } from './discord-rest.js';

interface SentMessage {
  id: string;
}

/** Mentions in a reply never ping (no @everyone, no roles, no users); replying does not ping either. */
const NO_PINGS = { parse: [], replied_user: false };

function replyReference(target: ChannelTarget) {
  return target.replyToMessageId
    ? { message_reference: { message_id: target.replyToMessageId, fail_if_not_exists: false } }
    : {};
}

/** POST /channels/{id}/messages: text (already in Discord's dialect), optionally files (multipart). */
export async function createDiscordMessage(
  rest: DiscordRest,
  channelId: string,
  content: string,
  options: { replyTo?: string; files?: readonly DiscordFile[] } = {},
): Promise<string> {
  const sent = await rest.request<SentMessage>(
    'POST',
    `/channels/${channelId}/messages`,
    {
      content,
      allowed_mentions: NO_PINGS,
      ...(options.replyTo ? { message_reference: { message_id: options.replyTo, fail_if_not_exists: false } } : {}),
    },
    options.files ?? [],
  );
  return sent.id;
}

/** The Discord channel a target's messages go to (a DM's peer is the person; their DM channel is looked up). */
export type ChannelOf = (target: ChannelTarget) => Promise<string>;

/** Sends a whole reply in Discord's markdown, split into several messages past 2000 characters. */
export async function sendDiscordText(
  rest: DiscordRest,
  channelOf: ChannelOf,
  target: ChannelTarget,
  text: string,
): Promise<string> {
  const channelId = await channelOf(target);
  let first: string | undefined;
  for (const part of splitForDiscord(toDiscordMarkdown(text))) {
    const id = await createDiscordMessage(rest, channelId, part, first ? {} : { replyTo: target.replyToMessageId });
    first ??= id;
  }
  return first!;
}

/**
 * A streamed reply as one message edited in place (PATCH), like Telegram's: the first words are
 * sent at once, later texts are coalesced into at most one edit per `editIntervalMs`, the final
 * text lands in the same message and continues in follow-up messages past Discord's 2000 characters.
 * Calls for one reply never overlap, so edits land in order; a 429 is waited out by the REST client.
 */
export function startDiscordStream(
  rest: DiscordRest,
  channelOf: ChannelOf,
  target: ChannelTarget,
  options: { editIntervalMs: number; onError(error: unknown): void },
): ChannelReplyStream {
  let messageId: string | undefined;
  let shown = '';
  let latest = '';
  let lastCallAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let ended = false;
  const preview = (text: string) =>
    text.length <= DISCORD_MAX_MESSAGE ? text : `${text.slice(0, DISCORD_MAX_MESSAGE - 1)}…`;
  let channel: Promise<string> | undefined;
  const channelId = () => {
    channel ??= channelOf(target);
    return channel;
  };
  const path = async () => `/channels/${await channelId()}/messages/${messageId}`;

  const push = () => {
    timer = undefined;
    chain = chain.then(async () => {
      if (ended || latest === shown || latest.trim() === '') return;
      // What this call shows: more text may arrive while it is on the wire.
      const sending = latest;
      const text = preview(toDiscordMarkdown(sending));
      lastCallAt = Date.now();
      try {
        if (messageId === undefined)
          messageId = (
            await rest.request<SentMessage>('POST', `/channels/${await channelId()}/messages`, {
              content: text,
              allowed_mentions: NO_PINGS,
              ...replyReference(target),
            })
          ).id;
        else await rest.request('PATCH', await path(), { content: text, allowed_mentions: NO_PINGS });
        shown = sending;
      } catch (error) {
        options.onError(error);
      }
    });
  };

  return {
    update(textSoFar) {
      if (ended) return;
      latest = textSoFar;
      if (timer) return;
      const wait = lastCallAt === 0 ? 0 : lastCallAt + options.editIntervalMs - Date.now();
      if (wait <= 0) push();
      else timer = setTimeout(push, wait);
    },
    async end(finalText) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain;
      ended = true;
      const parts = splitForDiscord(toDiscordMarkdown(finalText.trim() === '' ? '(no reply)' : finalText));
      const wait = lastCallAt + options.editIntervalMs - Date.now();
      if (messageId !== undefined && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      for (const [index, part] of parts.entries()) {
        if (index === 0 && messageId !== undefined) {
          if (part !== preview(toDiscordMarkdown(shown)))
            await rest.request('PATCH', await path(), { content: part, allowed_mentions: NO_PINGS });
        } else
          await createDiscordMessage(
            rest,
            await channelId(),
            part,
            index === 0 ? { replyTo: target.replyToMessageId } : {},
          );
      }
    },
  };
}
