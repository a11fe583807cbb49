import type {
  ChannelButtonPress,
  ChannelButtonsAdapter,
  ChannelPrompt,
  ChannelTarget,
} from '../../src-main/plugins/sdk/index.js';
import type { SlackApi } from './slack-api.js';
import { escapeSlackText } from './slack-mrkdwn.js';
import type { ChannelOf } from './slack-stream.js';

// Prompts with buttons (approvals) as Block Kit (https://api.slack.com/block-kit): a `section`
// with the prompt as plain_text (a command is never formatting) and an `actions` block of
// buttons whose `action_id` is `<promptId>:<buttonId>`. A press comes back as a `block_actions`
// interaction payload (https://api.slack.com/reference/interaction-payloads/block-actions): in
// Socket Mode an `interactive` envelope, in Events API mode a signed POST with a `payload=` form
// body. The presser alone is told the outcome with chat.postEphemeral; settling the prompt is a
// chat.update whose blocks no longer carry the buttons.

/** Block Kit's limits: 3000 characters of section text, 75 of a button's text, 255 of an action_id. */
const MAX_SECTION_TEXT = 3000;
const MAX_BUTTON_TEXT = 75;
const MAX_ACTION_ID = 255;
/** The actions block of a prompt, so a press can be told from other apps' blocks. */
export const PROMPT_BLOCK_ID = 'hearth_prompt';

const section = (text: string) => ({
  type: 'section',
  text: { type: 'plain_text', text: text.slice(0, MAX_SECTION_TEXT), emoji: true },
});

/** The blocks of a prompt: its text, then one button per choice. */
export function promptBlocks(prompt: ChannelPrompt): unknown[] {
  return [
    section(prompt.text),
    {
      type: 'actions',
      block_id: PROMPT_BLOCK_ID,
      elements: prompt.buttons.map((button) => {
        const actionId = `${prompt.promptId}:${button.id}`;
        if (actionId.length > MAX_ACTION_ID) throw new Error(`button action_id over ${MAX_ACTION_ID} characters`);
        return {
          type: 'button',
          text: { type: 'plain_text', text: button.label.slice(0, MAX_BUTTON_TEXT), emoji: true },
          action_id: actionId,
          value: button.id,
          ...(button.style ? { style: button.style } : {}),
        };
      }),
    },
  ];
}

/** The fields of a `block_actions` payload the channel reads. */
export interface SlackBlockActions {
  type?: unknown;
  user?: { id?: unknown; username?: unknown; name?: unknown };
  container?: { type?: unknown; message_ts?: unknown; channel_id?: unknown; thread_ts?: unknown };
  channel?: { id?: unknown };
  message?: { ts?: unknown; thread_ts?: unknown };
  actions?: { action_id?: unknown; block_id?: unknown; type?: unknown }[];
}

/**
 * A press of a prompt's button as the host's press, or why it is not one. `answer` tells the
 * presser alone (an ephemeral message in the prompt's channel and thread). `channel` is the
 * channel the prompt is in (a DM's `D…`; the peer of a DM is the person).
 */
export function normaliseBlockActions(
  payload: SlackBlockActions,
  api: SlackApi,
): { press: ChannelButtonPress; channel: string } | { skip: string } {
  if (!payload || typeof payload !== 'object') return { skip: 'not an interaction payload' };
  if (payload.type !== 'block_actions') return { skip: `interaction type ${String(payload.type)}` };
  const user = payload.user;
  const channel = payload.container?.channel_id ?? payload.channel?.id;
  const ts = payload.container?.message_ts ?? payload.message?.ts;
  const action = Array.isArray(payload.actions) ? payload.actions[0] : undefined;
  if (typeof user?.id !== 'string') return { skip: 'block_actions without a user' };
  if (typeof channel !== 'string' || typeof ts !== 'string') return { skip: 'block_actions not on a message' };
  if (action?.block_id !== PROMPT_BLOCK_ID || typeof action.action_id !== 'string')
    return { skip: 'an action not from a prompt' };
  const at = action.action_id.lastIndexOf(':');
  if (at <= 0) return { skip: 'action_id not from a prompt' };
  const rawThread = payload.container?.thread_ts ?? payload.message?.thread_ts;
  const threadTs = typeof rawThread === 'string' ? rawThread : undefined;
  const target: ChannelTarget = channel.startsWith('D')
    ? { peerKind: 'direct', peerId: user.id }
    : { peerKind: 'channel', peerId: channel, ...(threadTs ? { replyToMessageId: threadTs } : {}) };
  const presser = user.id;
  return {
    channel,
    press: {
      promptId: action.action_id.slice(0, at),
      buttonId: action.action_id.slice(at + 1),
      sender: {
        id: presser,
        ...(typeof user.name === 'string' ? { name: user.name } : {}),
        ...(typeof user.username === 'string' ? { username: user.username } : {}),
      },
      target,
      messageId: `${channel}:${ts}`,
      answer: async (notice?: string) => {
        // The acknowledgement already stopped the button's spinner; a notice is for the presser only.
        if (!notice) return;
        await api.call('chat.postEphemeral', {
          channel,
          user: presser,
          text: escapeSlackText(notice),
          ...(threadTs ? { thread_ts: threadTs } : {}),
        });
      },
    },
  };
}

/**
 * The buttons adapter: a prompt is a message with an actions block; settling it updates the blocks
 * away. A prompt's id is `channel:ts`, as Slack names a message: chat.update needs the channel the
 * post landed in (a DM's `D…`, not the person's `U…`), and it must survive a channel restart.
 */
export function slackButtons(api: SlackApi, channelOf: ChannelOf): ChannelButtonsAdapter {
  return {
    async sendPrompt(target, prompt) {
      const sent = await api.call<{ ts: string; channel?: string }>('chat.postMessage', {
        channel: channelOf(target),
        // The notification and fallback text: plain, never formatting.
        text: escapeSlackText(prompt.text),
        mrkdwn: false,
        blocks: promptBlocks(prompt),
        ...(target.replyToMessageId ? { thread_ts: target.replyToMessageId } : {}),
      });
      return { messageId: `${sent.channel ?? channelOf(target)}:${sent.ts}` };
    },
    async settlePrompt(target, messageId, text) {
      const at = messageId.lastIndexOf(':');
      // Without `blocks` Slack would keep the old ones, buttons included.
      await api.call('chat.update', {
        channel: at > 0 ? messageId.slice(0, at) : channelOf(target),
        ts: messageId.slice(at + 1),
        text: escapeSlackText(text),
        blocks: [section(text)],
      });
    },
  };
}
