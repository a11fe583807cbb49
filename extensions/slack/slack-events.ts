import type { ChannelInboundMessage, ChannelPeerKind } from '../../src-main/plugins/sdk/index.js';
import { fileRefsOf, type SlackFileRef } from './slack-files.js';
import { fromSlackText } from './slack-mrkdwn.js';

/** The fields of a Slack `message` / `app_mention` event the channel reads (https://api.slack.com/events). */
export interface SlackMessageEvent {
  type?: unknown;
  subtype?: unknown;
  channel?: unknown;
  channel_type?: unknown;
  user?: unknown;
  bot_id?: unknown;
  text?: unknown;
  ts?: unknown;
  thread_ts?: unknown;
  files?: unknown;
}

/** Subtypes that are a person writing; every other (edits, joins, bot posts…) is skipped. */
const PERSON_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast']);

function peerKindOf(event: SlackMessageEvent, channel: string): ChannelPeerKind {
  switch (event.channel_type) {
    case 'im':
      return 'direct';
    case 'mpim':
      return 'group';
    case 'channel':
    case 'group':
      return 'channel';
    default:
      // app_mention carries no channel_type; DM channel ids start with D.
      return channel.startsWith('D') ? 'direct' : 'channel';
  }
}

/**
 * A Slack event as the host's message, or why it is not one. In channels, `addressedToBot` is a
 * `<@BOTID>` mention (or an `app_mention` event); the mention is taken out of the text the model
 * sees. Replies outside DMs go into the message's thread (`thread_ts`, else the message itself),
 * so a channel is not flooded; a DM thread is answered in that thread. The message id is
 * `channel:ts`, so the `message` and `app_mention` events of one message are one message.
 * A DM's peer is the person (`U…`), so their session and per-user memory follow them (`slack:U…`,
 * as identity links name them); `channel` is the DM's own id (`D…`) the reply is posted to.
 */
export function normaliseSlackEvent(
  event: SlackMessageEvent,
  botUserId: string,
): { message: ChannelInboundMessage; channel: string; files: SlackFileRef[] } | { skip: string } {
  if (!event || typeof event !== 'object') return { skip: 'no event' };
  if (event.type !== 'message' && event.type !== 'app_mention') return { skip: `event type ${String(event.type)}` };
  if (!PERSON_SUBTYPES.has(event.subtype as string | undefined))
    return { skip: `message subtype ${String(event.subtype)}` };
  const { channel, user, ts } = event;
  if (typeof channel !== 'string' || typeof user !== 'string' || typeof ts !== 'string')
    return { skip: 'malformed message (no channel, user or ts)' };
  if (event.bot_id !== undefined || user === botUserId) return { skip: 'message from a bot' };
  const raw = typeof event.text === 'string' ? event.text : '';
  const files = fileRefsOf(event.files);
  if (raw.trim() === '' && files.length === 0) return { skip: 'message without text' };
  const mention = `<@${botUserId}>`;
  const mentioned = event.type === 'app_mention' || raw.includes(mention);
  const text = fromSlackText(raw.split(mention).join(' '))
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  const peerKind = peerKindOf(event, channel);
  const threadTs = typeof event.thread_ts === 'string' ? event.thread_ts : undefined;
  const replyTo = threadTs ?? (peerKind === 'direct' ? undefined : ts);
  const seconds = Number(ts);
  return {
    message: {
      messageId: `${channel}:${ts}`,
      target: {
        peerKind,
        peerId: peerKind === 'direct' ? user : channel,
        ...(replyTo ? { replyToMessageId: replyTo } : {}),
      },
      sender: { id: user },
      text,
      addressedToBot: mentioned,
      ts: Number.isFinite(seconds) ? Math.round(seconds * 1000) : Date.now(),
    },
    channel,
    files,
  };
}

/** A malformed event is skipped, never allowed to stop the channel. */
export function safelyNormalise(event: SlackMessageEvent, botUserId: string): ReturnType<typeof normaliseSlackEvent> {
  try {
    return normaliseSlackEvent(event, botUserId);
  } catch (error) {
    return { skip: `malformed event (${String(error)})` };
  }
}
