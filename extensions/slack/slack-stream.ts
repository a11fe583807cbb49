import {
  type ChannelReplyStream,
  type ChannelTarget,
  startEditInPlaceStream,
} from '../../src-main/plugins/sdk/index.js';
import type { SlackApi } from './slack-api.js';
import { splitForSlack, toSlackMrkdwn } from './slack-mrkdwn.js';

/** Slack truncates `text` past 40,000 characters and advises under 4,000; a reply part stays under it. */
export const SLACK_MAX_MESSAGE = 4000;
/** Source text per message: leaves room for the escapes (&amp; etc.) within SLACK_MAX_MESSAGE. */
const SOURCE_PART = 3000;

/** Where a target's messages go: a DM's peer is a user id, which chat.postMessage takes as their DM. */
export type ChannelOf = (target: ChannelTarget) => string;

const threadOf = (target: ChannelTarget) => (target.replyToMessageId ? { thread_ts: target.replyToMessageId } : {});

const preview = (text: string) => {
  const rendered = toSlackMrkdwn(text);
  return rendered.length <= SLACK_MAX_MESSAGE ? rendered : `${rendered.slice(0, SLACK_MAX_MESSAGE - 1)}…`;
};

/** Sends a whole reply as mrkdwn, split into several messages (in the same thread) when it is long. */
export async function sendSlackText(
  api: SlackApi,
  channelOf: ChannelOf,
  target: ChannelTarget,
  text: string,
): Promise<string> {
  let first: string | undefined;
  for (const part of splitForSlack(text.trim() === '' ? '(no reply)' : text, SOURCE_PART)) {
    const sent = await api.call<{ ts: string }>('chat.postMessage', {
      channel: channelOf(target),
      text: toSlackMrkdwn(part),
      mrkdwn: true,
      ...threadOf(target),
    });
    first ??= sent.ts;
  }
  return first!;
}

/**
 * A streamed reply as one message updated in place (the SDK's edit-in-place stream): the first
 * text is posted at once, later texts are coalesced into at most one chat.update per
 * `editIntervalMs`; `end` puts the final text into the same message, then further messages (same
 * thread) if it is longer than one may be. A 429 is waited out inside the API client.
 */
export function startSlackStream(
  api: SlackApi,
  channelOf: ChannelOf,
  target: ChannelTarget,
  options: { editIntervalMs: number; onError(error: unknown): void },
): ChannelReplyStream {
  // chat.update needs the channel id chat.postMessage answered with (a DM's D…, not the user).
  let channel = channelOf(target);
  const post = (text: string) =>
    api.call<{ ts: string; channel?: string }>('chat.postMessage', {
      channel,
      text,
      mrkdwn: true,
      ...threadOf(target),
    });
  const update = async (ts: string, text: string) => {
    await api.call('chat.update', { channel, ts, text });
  };
  return startEditInPlaceStream<string>({
    ...options,
    preview,
    send: async (text) => {
      const sent = await post(text);
      channel = sent.channel ?? channel;
      return sent.ts;
    },
    edit: update,
    finalParts: (text) => splitForSlack(text, SOURCE_PART).map(toSlackMrkdwn),
    editFinal: update,
    sendFinal: async (text) => {
      await post(text);
    },
  });
}
