import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';
import { type FakeDiscordServer, startFakeDiscordServer } from '../testing/fake-discord-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// The whole path a Discord user sees: the real Hearth host, the bundled discord plugin talking to
// a fake Discord (REST v10 + Gateway WebSocket) on loopback, the model on the fake LLM server.

const OWNER = { id: '4242000000000000001', username: 'olive', global_name: 'Olive' };
const STRANGER = { id: '7770000000000000001', username: 'sam' };
const GUILD = '9000000000000000001';
const GENERAL = '9000000000000000010';
const THREAD = '9000000000000000020';

let discord: FakeDiscordServer;
let product: ProductFixture;

async function channelStatus(): Promise<Record<string, unknown>> {
  const answer = await product.socket.request('channels.list', {});
  const list = (answer.payload as { channels: Record<string, unknown>[] }).channels;
  return list.find((c) => c.id === 'discord')!;
}

/** Reads channels.list until `test` holds, waiting for a `channels.changed` event between reads. */
async function waitForStatus(test: (status: Record<string, unknown>) => boolean) {
  for (;;) {
    const seen = product.socket.frames.length;
    const status = await channelStatus();
    if (test(status)) return status;
    await product.socket.next(
      (frame) => frame.event === 'channels.changed' && product.socket.frames.indexOf(frame) >= seen,
      20_000,
    );
  }
}

const dm = () => discord.dmChannelOf(OWNER.id);

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  product = await startProductFixture({
    config: {
      channels: { discord: { apiBaseUrl: discord.url, editIntervalMs: 100, allowFrom: [OWNER.id] } },
    },
    before: async (home) => {
      const { store } = await openSecretStore({
        paths: createHearthPaths(home),
        log: silentLogger,
        env: { HEARTH_SECRET_STORE: 'file' },
      });
      await store.set('channels.discord.token', discord.token);
    },
  });
  await waitForStatus((status) => status.state === 'connected');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await discord?.close();
});

afterEach(() => product.llm.script([]));

describe('Discord, end to end through the channel host', () => {
  it('identified on the gateway with the message intents, and shows as connected', async () => {
    const identify = await discord.waitForFrame((f) => f.op === 2);
    expect(identify.d).toMatchObject({ token: discord.token, intents: 1 | (1 << 9) | (1 << 12) | (1 << 15) });
    expect(await channelStatus()).toMatchObject({ state: 'connected', account: '@hearth_test_bot' });
  });

  it('answers a DM with a reply streamed by editing one message', async () => {
    const text = 'Sure thing. Here is **the plan**: step 1, then step 2, and then we are done here.';
    product.llm.script([{ type: 'text', text, chunkSize: 6 }]);
    discord.sendUserMessage({ author: OWNER, content: 'make a plan' });
    const reply = await discord.waitForBotMessage(dm(), (m) => m.content === text);
    // Streamed: created with the first words, then PATCHed in place up to the whole reply.
    expect(reply.versions.length).toBeGreaterThanOrEqual(2);
    expect(text.startsWith(reply.versions[0]!)).toBe(true);
    expect(discord.botMessages(dm())).toHaveLength(1);
    expect(discord.calls.some((c) => c.method === 'PATCH' && c.path.endsWith(`/messages/${reply.id}`))).toBe(true);
    expect(discord.calls.some((c) => c.method === 'POST' && c.path === `/channels/${dm()}/typing`)).toBe(true);
    expect(reply.allowedMentions).toEqual({ parse: [], replied_user: false });
    expect(product.llm.requests.at(-1)?.lastUserText).toContain('make a plan');
    const sessions = await product.socket.request('sessions.list', {});
    expect(JSON.stringify(sessions.payload)).toContain(`agent:main:discord:direct:${OWNER.id}`);
  });

  it('gives an unknown DM sender a pairing code and never reaches the model', async () => {
    const before = product.llm.requests.length;
    discord.sendUserMessage({ author: STRANGER, content: 'hello?' });
    const instruction = await discord.waitForBotMessage(discord.dmChannelOf(STRANGER.id), (m) =>
      /pairing code/.test(m.content),
    );
    expect(instruction.content).toMatch(/code is [A-Z2-9]{8}/);
    expect(product.llm.requests.length).toBe(before);
  });

  it('ignores a guild message without a mention, answers one with a mention, and a reply to the bot in a thread', async () => {
    const before = product.llm.requests.length;
    discord.sendUserMessage({ guildId: GUILD, channelId: GENERAL, author: OWNER, content: 'chatting among ourselves' });
    product.llm.script([{ type: 'text', text: 'Hello, guild.' }]);
    const asked = discord.sendUserMessage({
      guildId: GUILD,
      channelId: GENERAL,
      author: OWNER,
      content: 'say hi',
      mentionBot: true,
    });
    const reply = await discord.waitForBotMessage(GENERAL, (m) => m.content === 'Hello, guild.');
    // Dispatches are handed over in order: the unmentioned one came first and reached no one.
    expect(discord.botMessages(GENERAL)).toHaveLength(1);
    expect(product.llm.requests.length).toBe(before + 1);
    expect(reply.replyTo).toBe(asked);
    expect(product.llm.requests.at(-1)?.lastUserText).toContain('say hi');
    expect(product.llm.requests.at(-1)?.lastUserText).not.toContain(`<@${discord.bot.id}>`);

    product.llm.script([{ type: 'text', text: 'Started a thread.' }]);
    discord.sendUserMessage({
      guildId: GUILD,
      channelId: THREAD,
      author: OWNER,
      content: 'in the thread',
      mentionBot: true,
    });
    const first = await discord.waitForBotMessage(THREAD, (m) => m.content === 'Started a thread.');
    product.llm.script([{ type: 'text', text: 'Following up.' }]);
    discord.sendUserMessage({
      guildId: GUILD,
      channelId: THREAD,
      author: OWNER,
      content: 'and more',
      replyToMessageId: first.id,
    });
    await discord.waitForBotMessage(THREAD, (m) => m.content === 'Following up.');
    expect(product.llm.requests.at(-1)?.lastUserText).toContain('and more');
    const sessions = await product.socket.request('sessions.list', {});
    expect(JSON.stringify(sessions.payload)).toContain(`agent:main:discord:group:${THREAD}`);
  });

  it('honours a 429: retry_after from the JSON body, and the Retry-After header alone', async () => {
    product.llm.script([{ type: 'text', text: 'Patience pays.' }]);
    discord.rateLimitNext('POST', /\/channels\/\d+\/messages$/, 1, 'body');
    discord.sendUserMessage({ author: OWNER, content: 'slowly' });
    await discord.waitForCall((c) => c.status === 429 && c.method === 'POST');
    const limitedAt = Date.now();
    await discord.waitForBotMessage(dm(), (m) => m.content === 'Patience pays.');
    expect(Date.now() - limitedAt).toBeGreaterThanOrEqual(900);

    const long = 'One two three four five six seven eight nine ten eleven twelve.';
    product.llm.script([{ type: 'text', text: long, chunkSize: 4 }]);
    discord.rateLimitNext('PATCH', /\/channels\/\d+\/messages\/\d+$/, 1, 'header');
    discord.sendUserMessage({ author: OWNER, content: 'and edits' });
    await discord.waitForCall((c) => c.status === 429 && c.method === 'PATCH');
    const editLimitedAt = Date.now();
    const reply = await discord.waitForBotMessage(dm(), (m) => m.content === long);
    expect(Date.now() - editLimitedAt).toBeGreaterThanOrEqual(900);
    expect(reply.versions.at(-1)).toBe(long);
  });

  it('splits a reply over 2000 characters into several messages', async () => {
    const paragraph = `${'word '.repeat(150).trim()}.`;
    const text = Array.from({ length: 4 }, (_, i) => `Part ${i + 1}: ${paragraph}`).join('\n\n');
    product.llm.script([{ type: 'text', text, chunkSize: 400 }]);
    const before = discord.botMessages(dm()).length;
    discord.sendUserMessage({ author: OWNER, content: 'a long one' });
    await discord.waitForBotMessage(dm(), (m) => m.content.includes('Part 4:'));
    const sent = discord.botMessages(dm()).slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const message of sent) expect(message.content.length).toBeLessThanOrEqual(2000);
    expect(sent.map((m) => m.content).join('\n\n')).toBe(text);
  });

  it('hands an image to the model, and never fetches a stranger’s file', async () => {
    const bytes = new Uint8Array(Array.from({ length: 600 }, (_, i) => (i * 7) % 256));
    product.llm.script([{ type: 'text', text: 'A nice picture.' }]);
    const before = product.llm.requests.length;
    discord.sendUserMessage({
      author: OWNER,
      content: 'what is in this picture?',
      attachments: [{ bytes, filename: 'cat.png', contentType: 'image/png' }],
    });
    await discord.waitForBotMessage(dm(), (m) => m.content === 'A nice picture.');
    const request = product.llm.requests[before]!;
    expect(request.lastUserText).toContain('what is in this picture?');
    expect(JSON.stringify(request.body)).toContain(Buffer.from(bytes).toString('base64'));

    const visitor = { id: '3133700000000000001', username: 'eve' };
    const downloads = () => discord.calls.filter((c) => c.path.startsWith('/attachments/')).length;
    const fetched = downloads();
    discord.sendUserMessage({
      author: visitor,
      content: 'look',
      attachments: [{ bytes, filename: 'x.png', contentType: 'image/png' }],
    });
    await discord.waitForBotMessage(discord.dmChannelOf(visitor.id), (m) => /pairing code/.test(m.content));
    expect(downloads()).toBe(fetched);
  });

  it('resumes a dropped gateway connection (and a RECONNECT) without losing or duplicating a message', async () => {
    const start = product.llm.requests.length;
    product.llm.script([
      { type: 'text', text: 'First.' },
      { type: 'text', text: 'Second.' },
      { type: 'text', text: 'Third.' },
    ]);
    discord.sendUserMessage({ author: OWNER, content: 'one' });
    await discord.waitForBotMessage(dm(), (m) => m.content === 'First.');
    const connections = discord.connections;
    discord.dropConnection();
    // Written while the bot is away: Discord keeps it for the session and replays it on RESUME.
    discord.sendUserMessage({ author: OWNER, content: 'two' });
    const resume = await discord.waitForFrame((f) => f.op === 6 && f.connection > connections);
    expect(resume.d).toMatchObject({ token: discord.token, session_id: expect.any(String), seq: expect.any(Number) });
    await discord.waitForBotMessage(dm(), (m) => m.content === 'Second.');

    const afterDrop = discord.connections;
    discord.requestReconnect();
    await discord.waitForFrame((f) => f.op === 6 && f.connection > afterDrop);
    discord.sendUserMessage({ author: OWNER, content: 'three' });
    await discord.waitForBotMessage(dm(), (m) => m.content === 'Third.');

    while (product.llm.requests.length < start + 3) await new Promise((resolve) => setTimeout(resolve, 20));
    const asked = product.llm.requests.slice(start).map((r) => r.lastUserText ?? '');
    for (const word of ['one', 'two', 'three']) expect(asked.filter((t) => t.includes(word))).toHaveLength(1);
    // Resumed, never identified again.
    expect(discord.frames.filter((f) => f.op === 2)).toHaveLength(1);
    expect((await channelStatus()).state).toBe('connected');
  });

  it('shows a revoked token (gateway close 4004) as a clear status, and the gateway keeps serving', async () => {
    discord.revokeToken();
    discord.dropConnection();
    const status = await waitForStatus((s) => s.state === 'error');
    expect(status.error).toMatch(/rejected the bot token \(gateway close 4004/);
    expect(status.error).not.toContain(discord.token);
    const turn = await product.turn('after-revoke', 'still there?');
    expect(turn.state).toBe('final');
  });
});
