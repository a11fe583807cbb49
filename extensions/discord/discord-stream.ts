import {
  type ChannelReplyStream,
  type ChannelTarget,
  startEditInPlaceStream,
} from '../../src-main/plugins/sdk/index.js';
import { DISCORD_MAX_MESSAGE, splitForDiscord, toDiscordMarkdown } from './discord-markdown.js';
import type { DiscordFile, DiscordRest } from './discord-rest.js';

interface SentMessage {
  id: string;
}

/** Mentions in a reply never ping (no @everyone, no roles, no users); replying does not ping either. */
const NO_PINGS = { parse: [], replied_user: false };

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
 * A streamed reply as one message edited in place (PATCH; the SDK's edit-in-place stream): the
 * first words are sent at once, later texts are coalesced into at most one edit per
 * `editIntervalMs`, the final text lands in the same message (unless it already shows it) and
 * continues in follow-up messages past Discord's 2000 characters. A 429 is waited out by the REST client.
 */
export function startDiscordStream(
  rest: DiscordRest,
  channelOf: ChannelOf,
  target: ChannelTarget,
  options: { editIntervalMs: number; onError(error: unknown): void },
): ChannelReplyStream {
  let channel: Promise<string> | undefined;
  const channelId = () => {
    channel ??= channelOf(target);
    return channel;
  };
  const edit = async (messageId: string, content: string) => {
    await rest.request('PATCH', `/channels/${await channelId()}/messages/${messageId}`, {
      content,
      allowed_mentions: NO_PINGS,
    });
  };
  return startEditInPlaceStream<string>({
    ...options,
    preview: (text) => {
      const rendered = toDiscordMarkdown(text);
      return rendered.length <= DISCORD_MAX_MESSAGE ? rendered : `${rendered.slice(0, DISCORD_MAX_MESSAGE - 1)}…`;
    },
    send: async (content) =>
      createDiscordMessage(rest, await channelId(), content, { replyTo: target.replyToMessageId }),
    edit,
    finalParts: (text) => splitForDiscord(toDiscordMarkdown(text)),
    editFinal: async (messageId, part, alreadyShown) => {
      if (!alreadyShown) await edit(messageId, part);
    },
    sendFinal: async (part, index) => {
      await createDiscordMessage(
        rest,
        await channelId(),
        part,
        index === 0 ? { replyTo: target.replyToMessageId } : {},
      );
    },
  });
}
