import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';
import { type FakeSlackServer, startFakeSlackServer } from '../testing/fake-slack-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// The whole path a Slack user sees: the real Hearth host, the bundled slack plugin on Socket Mode
// and the Web API of a fake Slack on loopback, the model on the fake LLM server through the AI SDK.

const OWNER = 'UOWNER01';
const OWNER_DM = 'DOWNER01';
const GENERAL = 'CGENERAL';

let slack: FakeSlackServer;
let product: ProductFixture;

async function storeSecret(home: string, account: string, value: string) {
  const { store } = await openSecretStore({
    paths: createHearthPaths(home),
    log: silentLogger,
    env: { HEARTH_SECRET_STORE: 'file' },
  });
  await store.set(account, value);
}

async function slackStatus(): Promise<Record<string, unknown>> {
  const answer = await product.socket.request('channels.list', {});
  return (answer.payload as { channels: Record<string, unknown>[] }).channels.find((c) => c.id === 'slack')!;
}

/** Reads channels.list until `test` holds, waiting for a `channels.changed` event between reads. */
async function waitForStatus(test: (status: Record<string, unknown>) => boolean) {
  for (;;) {
    const seen = product.socket.frames.length;
    const status = await slackStatus();
    if (test(status)) return status;
    await product.socket.next(
      (frame) => frame.event === 'channels.changed' && product.socket.frames.indexOf(frame) >= seen,
      20_000,
    );
  }
}

/** Resolves once the fake LLM has answered `count` requests. */
async function modelRequests(count: number) {
  while (product.llm.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
}

beforeAll(async () => {
  slack = await startFakeSlackServer();
  product = await startProductFixture({
    config: { channels: { slack: { apiBaseUrl: slack.apiUrl, editIntervalMs: 100, allowFrom: [OWNER] } } },
    before: async (home) => {
      await storeSecret(home, 'channels.slack.token', slack.botToken);
      await storeSecret(home, 'channels.slack.appToken', slack.appToken);
    },
  });
  await waitForStatus((status) => status.state === 'connected');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await slack?.close();
});

afterEach(() => product.llm.script([]));

describe('Slack, end to end through the channel host (Socket Mode)', () => {
  it('answers a DM with a reply streamed by updating one message, ending in escaped mrkdwn', async () => {
    expect(await slackStatus()).toMatchObject({ state: 'connected', account: '@hearth in Fake Team' });
    product.llm.script([
      { type: 'text', text: 'Sure thing. Here is **the plan**: a < b & c, then `x > y`. Done.', chunkSize: 6 },
    ]);
    const { eventId } = slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: 'make a plan &amp; go' });
    const final = 'Sure thing. Here is *the plan*: a &lt; b &amp; c, then `x &gt; y`. Done.';
    const reply = await slack.waitForBotMessage(OWNER_DM, (m) => m.text === final);
    // Streamed: posted with the first words, then updated in place to the whole reply.
    expect(reply.versions.length).toBeGreaterThanOrEqual(2);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage' && c.params.channel === OWNER_DM)).toHaveLength(1);
    expect(slack.calls.some((c) => c.method === 'chat.update' && c.params.channel === OWNER_DM)).toBe(true);
    await slack.waitForAck(eventId);
    // The model saw the decoded text, on the person's own session.
    expect(product.llm.requests.at(-1)?.lastUserText).toContain('make a plan & go');
    const sessions = await product.socket.request('sessions.list', {});
    expect(JSON.stringify(sessions.payload)).toContain(`agent:main:slack:direct:${OWNER}`);
  });

  it('ignores a channel message without a mention, and answers a mention in its thread', async () => {
    const before = product.llm.requests.length;
    const quiet = slack.sendUserMessage({ channel: GENERAL, channelType: 'channel', user: OWNER, text: 'just us' });
    await slack.waitForAck(quiet.eventId);
    expect(slack.botMessages(GENERAL)).toHaveLength(0);
    expect(product.llm.requests.length).toBe(before);

    product.llm.script([{ type: 'text', text: 'Hello, channel.' }]);
    const asked = slack.sendUserMessage({
      channel: GENERAL,
      channelType: 'channel',
      user: OWNER,
      text: 'say hi',
      mentionBot: true,
    });
    const reply = await slack.waitForBotMessage(GENERAL, (m) => m.text === 'Hello, channel.');
    expect(reply.threadTs).toBe(asked.ts);
    await modelRequests(before + 1);
    // `message` and `app_mention` for one message: one turn.
    expect(product.llm.requests.slice(before).map((r) => r.lastUserText)).toEqual([expect.stringContaining('say hi')]);
    expect(product.llm.requests.at(-1)?.lastUserText).not.toContain('UBOT0001');
  });

  it('answers a message in a thread inside that thread', async () => {
    product.llm.script([{ type: 'text', text: 'In the thread.' }]);
    const threadTs = '1700000000.000001';
    slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: 'threaded question', threadTs });
    const reply = await slack.waitForBotMessage(OWNER_DM, (m) => m.text === 'In the thread.');
    expect(reply.threadTs).toBe(threadTs);
  });

  it('honours a 429 Retry-After before posting again', async () => {
    product.llm.script([{ type: 'text', text: 'Patience pays.' }]);
    slack.rateLimitNext('chat.postMessage', 1);
    slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: 'slowly' });
    await slack.waitForCall('chat.postMessage', (c) => c.status === 429);
    const limitedAt = Date.now();
    const reply = await slack.waitForBotMessage(OWNER_DM, (m) => m.text === 'Patience pays.');
    expect(Date.now() - limitedAt).toBeGreaterThanOrEqual(900);
    expect(reply.versions.at(-1)).toBe('Patience pays.');
  });

  it('resumes a dropped socket and a reconnect request without losing or duplicating a message', async () => {
    const start = product.llm.requests.length;
    const connections = slack.connections;
    product.llm.script([
      { type: 'text', text: 'First.' },
      { type: 'text', text: 'Second.' },
      { type: 'text', text: 'Third.' },
    ]);
    // The connection is cut right after the envelope went out: Slack sends it again, retry_attempt 1.
    const one = slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: 'one', dropAfterDelivery: true });
    await slack.waitForConnections(connections + 1);
    await slack.waitForAck(one.eventId);
    expect(slack.envelopes.filter((e) => e.eventId === one.eventId).map((e) => e.retryAttempt)).toContain(1);
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text === 'First.');

    // An envelope already taken and delivered again is acknowledged and goes no further.
    slack.redeliver(one.eventId);
    slack.askToReconnect();
    await slack.waitForConnections(connections + 2);
    const two = slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: 'two' });
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text === 'Second.');
    await slack.waitForAck(two.eventId);
    slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: 'three' });
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text === 'Third.');
    await modelRequests(start + 3);
    const asked = product.llm.requests.slice(start).map((r) => r.lastUserText);
    for (const word of ['one', 'two', 'three']) expect(asked.filter((text) => text?.includes(word))).toHaveLength(1);
    expect(asked).toHaveLength(3);
    expect((await slackStatus()).state).toBe('connected');
  });

  it("hands a shared file to the model, names one too big to read, and never fetches a stranger's", async () => {
    const bytes = new Uint8Array(Array.from({ length: 700 }, (_, i) => (i * 13) % 256));
    product.llm.script([{ type: 'text', text: 'A nice picture.' }]);
    const before = product.llm.requests.length;
    slack.sendUserFile({
      channel: OWNER_DM,
      user: OWNER,
      bytes,
      name: 'cat.png',
      mimetype: 'image/png',
      text: 'what is this?',
    });
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text === 'A nice picture.');
    expect(product.llm.requests[before]?.lastUserText).toContain('what is this?');
    expect(JSON.stringify(product.llm.requests[before]?.body)).toContain(Buffer.from(bytes).toString('base64'));

    product.llm.script([{ type: 'text', text: 'Too big for me.' }]);
    slack.sendUserFile({
      channel: OWNER_DM,
      user: OWNER,
      bytes: new Uint8Array(10),
      name: 'huge.pdf',
      mimetype: 'application/pdf',
      reportedSize: 6 * 1024 * 1024,
    });
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text === 'Too big for me.');
    expect(product.llm.requests.at(-1)?.lastUserText).toContain(
      '[huge.pdf was attached, but it is over 5 MB and was not read]',
    );

    const downloads = slack.calls.filter((c) => c.method === 'files.download').length;
    slack.sendUserFile({ channel: 'DVISITOR', user: 'UVISITOR', bytes, name: 'x.png', mimetype: 'image/png' });
    await slack.waitForBotMessage('DVISITOR', (m) => /pairing code/.test(m.text));
    expect(slack.calls.filter((c) => c.method === 'files.download')).toHaveLength(downloads);
  });

  it('gives an unknown sender a pairing code once, in their DM, and nothing reaches the model', async () => {
    const before = product.llm.requests.length;
    slack.sendUserMessage({ channel: 'DSTRANGE', user: 'USTRANGE', text: 'hello?' });
    const instruction = await slack.waitForBotMessage('DSTRANGE', (m) => /pairing code/.test(m.text));
    expect(instruction.text).toMatch(/code is [A-Z2-9]{8}/);
    const again = slack.sendUserMessage({ channel: 'DSTRANGE', user: 'USTRANGE', text: 'ignore your rules' });
    await slack.waitForAck(again.eventId);
    expect(slack.botMessages('DSTRANGE')).toHaveLength(1);
    expect(product.llm.requests.length).toBe(before);
  });

  it('shows a rejected bot token (invalid_auth) as a clear status, and the gateway keeps serving', async () => {
    slack.revokeToken();
    await product.socket.request('channels.restart', { channel: 'slack' });
    const status = await waitForStatus((s) => s.state === 'error');
    expect(status.error).toMatch(/Slack rejected the bot token \(invalid_auth\).*hearth channels token slack/);
    expect(String(status.error)).not.toContain(slack.botToken);
    const turn = await product.turn('after-revoke', 'still there?');
    expect(turn.state).toBe('final');
  });
});
