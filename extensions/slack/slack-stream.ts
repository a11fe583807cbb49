import type { ChannelReplyStream, ChannelTarget } from '../../src-main/plugins/sdk/index.js';
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
 * A streamed reply as one message updated in place. The first text is posted at once; later
 * texts are coalesced into at most one chat.update per `editIntervalMs`. `end` puts the final
 * text into the same message, then further messages (same thread) if it is longer than one may
 * be. A 429 is waited out inside the API client; calls for one reply never overlap, so updates
 * land in order.
 */
export function startSlackStream(
  api: SlackApi,
  channelOf: ChannelOf,
  target: ChannelTarget,
  options: { editIntervalMs: number; onError(error: unknown): void },
): ChannelReplyStream {
  let ts: string | undefined;
  // chat.update needs the channel id chat.postMessage answered with (a DM's D…, not the user).
  let channel = channelOf(target);
  let shown = '';
  let latest = '';
  let lastCallAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let ended = false;

  const push = () => {
    timer = undefined;
    chain = chain.then(async () => {
      if (ended || latest === shown || latest.trim() === '') return;
      const text = preview(latest);
      const sending = latest;
      lastCallAt = Date.now();
      try {
        if (ts === undefined) {
          const sent = await api.call<{ ts: string; channel?: string }>('chat.postMessage', {
            channel,
            text,
            mrkdwn: true,
            ...threadOf(target),
          });
          ts = sent.ts;
          channel = sent.channel ?? channel;
        } else await api.call('chat.update', { channel, ts, text });
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
      const parts = splitForSlack(finalText.trim() === '' ? '(no reply)' : finalText, SOURCE_PART);
      const wait = lastCallAt + options.editIntervalMs - Date.now();
      if (ts !== undefined && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      let first = true;
      for (const part of parts) {
        const text = toSlackMrkdwn(part);
        if (first && ts !== undefined) await api.call('chat.update', { channel, ts, text });
        else await api.call('chat.postMessage', { channel, text, mrkdwn: true, ...threadOf(target) });
        first = false;
      }
    },
  };
}
