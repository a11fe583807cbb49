import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeSlackServer, startFakeSlackServer } from '../testing/fake-slack-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Media out: the agent sends a file from its workspace into the Slack chat its run answers, with
// `channel_send_file`. Slack's external upload: files.getUploadURLExternal, the bytes POSTed to the
// upload URL, files.completeUploadExternal sharing it into the DM or the thread with the caption.
// A path outside the workspace, or Slack refusing a step, sends nothing and says why.

const OWNER = 'UOWNER01';
const OWNER_DM = 'DOWNER01';
const GENERAL = 'CGENERAL';
const REPORT = new Uint8Array(Buffer.from('%PDF-1.4\nthe quarterly report\n%%EOF\n'));
const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

let slack: FakeSlackServer;
let product: ProductFixture;

beforeAll(async () => {
  slack = await startFakeSlackServer();
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false } },
      channels: { slack: { apiBaseUrl: slack.apiUrl, editIntervalMs: 50, allowFrom: [OWNER] } },
    },
    before: async (home) => {
      await storeTestSecrets(home, {
        'channels.slack.token': slack.botToken,
        'channels.slack.appToken': slack.appToken,
      });
      await mkdir(join(home, 'workspace', 'out'), { recursive: true });
      await writeFile(join(home, 'workspace', 'out', 'report.pdf'), REPORT);
      await writeFile(join(home, 'workspace', 'chart.png'), PNG);
      await writeFile(join(home, 'secret.txt'), 'not for the channel');
    },
  });
  await waitForChannelConnected(product.socket, 'slack');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await slack?.close();
});

/**
 * The owner asks (in their DM, or with a mention in #general, which is answered in its thread);
 * the model calls channel_send_file with `input`, then says `after`. Resolves with what the model
 * was told and the asking message's ts.
 */
async function askToSend(input: Record<string, unknown>, after: string, where: 'dm' | 'general' = 'dm') {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'channel_send_file', input }] },
    { type: 'text', text: after },
  ]);
  const asked =
    where === 'dm'
      ? slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: 'send it to me please' })
      : slack.sendUserMessage({
          channel: GENERAL,
          channelType: 'channel',
          user: OWNER,
          text: 'post the chart here',
          mentionBot: true,
        });
  await slack.waitForBotMessage(where === 'dm' ? OWNER_DM : GENERAL, (m) => m.text === after);
  return { told: JSON.stringify(product.llm.requests.at(-1)!.body), ts: asked.ts };
}

describe('files out to Slack (channel_send_file)', () => {
  it('sends a document into the DM: the bytes arrive byte-exact, the caption as its comment', async () => {
    const { told } = await askToSend({ path: 'out/report.pdf', caption: 'Here is **the report**' }, 'Sent the report.');
    const shared = slack.uploads.shared.find((f) => f.name === 'report.pdf')!;
    expect(Buffer.from(shared.bytes).equals(Buffer.from(REPORT))).toBe(true);
    expect(shared).toMatchObject({ channel: OWNER_DM, title: 'report.pdf', initialComment: 'Here is *the report*' });
    expect(shared.threadTs).toBeUndefined();
    // The length announced before the upload is the file's.
    const ticket = slack.calls.find(
      (c) => c.method === 'files.getUploadURLExternal' && c.params.filename === 'report.pdf',
    );
    expect(ticket?.params.length).toBe(REPORT.length);
    expect(told).toContain('sent report.pdf');
  });

  it('sends an image into the thread of the channel message that asked', async () => {
    const { ts } = await askToSend({ path: 'chart.png', caption: 'the chart' }, 'There is the chart.', 'general');
    const shared = slack.uploads.shared.find((f) => f.name === 'chart.png')!;
    expect(Buffer.from(shared.bytes).equals(Buffer.from(PNG))).toBe(true);
    expect(shared).toMatchObject({ channel: GENERAL, threadTs: ts, initialComment: 'the chart' });
  });

  it('refuses a path outside the workspace, naming why, and uploads nothing', async () => {
    const tickets = slack.calls.filter((c) => c.method === 'files.getUploadURLExternal').length;
    const { told } = await askToSend({ path: '../secret.txt' }, 'I could not send that.');
    expect(told).toContain('outside the workspace');
    expect(slack.calls.filter((c) => c.method === 'files.getUploadURLExternal')).toHaveLength(tickets);
  });

  it('tells the model what Slack refused when the upload expired before it was shared, and shares nothing', async () => {
    const shared = slack.uploads.shared.length;
    slack.uploads.expireBeforeCompleting();
    const { told } = await askToSend({ path: 'out/report.pdf' }, 'Slack would not take it.');
    expect(told).toContain('Slack did not take report.pdf (files.completeUploadExternal: file_not_found)');
    expect(told).toContain('nothing was sent');
    expect(slack.uploads.shared).toHaveLength(shared);
  });

  it('names the refused bot token (invalid_auth) and uploads nothing', async () => {
    const received = slack.uploads.received.length;
    slack.revokeToken();
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'channel_send_file', input: { path: 'chart.png' } }] },
      { type: 'text', text: 'The token was refused.' },
    ]);
    slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: 'the chart please' });
    await slack.waitForCall('files.getUploadURLExternal', (c) => c.error === 'invalid_auth');
    // The reply after the tool is refused too; by then the model has been told.
    await slack.waitForCall('chat.postMessage', (c) => c.error === 'invalid_auth');
    const told = JSON.stringify(product.llm.requests.at(-1)!.body);
    expect(told).toContain('files.getUploadURLExternal: invalid_auth');
    expect(told).toContain('hearth channels token slack');
    expect(slack.uploads.received).toHaveLength(received);
  });
});
