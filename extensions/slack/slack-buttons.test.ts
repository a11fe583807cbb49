import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlackServer, startFakeSlackServer } from '../../src-main/testing/fake-slack-server.js';
import { SlackApi } from './slack-api.js';
import { normaliseBlockActions, PROMPT_BLOCK_ID, promptBlocks } from './slack-buttons.js';

// Approval prompts as Block Kit, and block_actions payloads as the host's presses. What is not a
// press of one of our prompts is skipped with a reason, never handed to the host.

let slack: FakeSlackServer;
let api: SlackApi;
beforeEach(async () => {
  slack = await startFakeSlackServer();
  api = new SlackApi({ baseUrl: slack.apiUrl, token: slack.botToken, fetch, signal: new AbortController().signal });
});
afterEach(async () => {
  await slack.close();
});

const prompt = {
  promptId: 'ABC234',
  text: 'Approval needed: run *rm* <now>',
  buttons: [
    { id: 'once', label: 'Allow once', style: 'primary' as const },
    { id: 'deny', label: 'Deny', style: 'danger' as const },
  ],
};
const action = (actionId = 'ABC234:once', blockId = PROMPT_BLOCK_ID) => ({
  action_id: actionId,
  block_id: blockId,
  type: 'button',
});

describe('Slack approval prompts', () => {
  it('are a plain_text section and an actions block of buttons', () => {
    expect(promptBlocks(prompt)).toEqual([
      { type: 'section', text: { type: 'plain_text', text: prompt.text, emoji: true } },
      {
        type: 'actions',
        block_id: PROMPT_BLOCK_ID,
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Allow once', emoji: true },
            action_id: 'ABC234:once',
            value: 'once',
            style: 'primary',
          },
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Deny', emoji: true },
            action_id: 'ABC234:deny',
            value: 'deny',
            style: 'danger',
          },
        ],
      },
    ]);
  });
});

describe('Slack block_actions as presses', () => {
  it('takes a DM press with the person as the peer, a channel press in its thread', () => {
    const dm = normaliseBlockActions(
      {
        type: 'block_actions',
        user: { id: 'U1', name: 'olive' },
        container: { type: 'message', channel_id: 'D1', message_ts: '5.1' },
        actions: [action()],
      },
      api,
    );
    expect(dm).toMatchObject({
      channel: 'D1',
      press: {
        promptId: 'ABC234',
        buttonId: 'once',
        sender: { id: 'U1', name: 'olive' },
        target: { peerKind: 'direct', peerId: 'U1' },
        messageId: 'D1:5.1',
      },
    });
    const threaded = normaliseBlockActions(
      {
        type: 'block_actions',
        user: { id: 'U2' },
        container: { type: 'message', channel_id: 'C1', message_ts: '6.1', thread_ts: '4.1' },
        actions: [action('ABC234:deny')],
      },
      api,
    );
    expect(threaded).toMatchObject({
      press: { buttonId: 'deny', target: { peerKind: 'channel', peerId: 'C1', replyToMessageId: '4.1' } },
    });
  });

  it('tells the presser alone, in the prompt thread, with the text escaped', async () => {
    const normalised = normaliseBlockActions(
      {
        type: 'block_actions',
        user: { id: 'U2' },
        container: { type: 'message', channel_id: 'C1', message_ts: '6.1', thread_ts: '4.1' },
        actions: [action()],
      },
      api,
    );
    if ('skip' in normalised) throw new Error(normalised.skip);
    await normalised.press.answer('Only the <owner> & nobody else');
    expect(slack.ephemerals).toEqual([
      { channel: 'C1', user: 'U2', text: 'Only the &lt;owner&gt; &amp; nobody else', threadTs: '4.1' },
    ]);
    // Without a notice there is nothing to say: the acknowledgement already stopped the spinner.
    await normalised.press.answer();
    expect(slack.ephemerals).toHaveLength(1);
  });

  it('skips what is not a press of a prompt, saying why', () => {
    const base = {
      type: 'block_actions',
      user: { id: 'U1' },
      container: { type: 'message', channel_id: 'D1', message_ts: '5.1' },
      actions: [action()],
    };
    const skipped = (payload: Record<string, unknown>) =>
      (normaliseBlockActions(payload, api) as { skip?: string }).skip;
    expect(skipped({ ...base, type: 'view_submission' })).toMatch(/interaction type view_submission/);
    expect(skipped({ ...base, user: undefined })).toMatch(/without a user/);
    expect(skipped({ ...base, container: { type: 'view' } })).toMatch(/not on a message/);
    expect(skipped({ ...base, actions: [action('ABC234:once', 'another_block')] })).toMatch(/not from a prompt/);
    expect(skipped({ ...base, actions: [action('nocolon')] })).toMatch(/not from a prompt/);
    expect(skipped({ ...base, actions: [] })).toMatch(/not from a prompt/);
  });
});
