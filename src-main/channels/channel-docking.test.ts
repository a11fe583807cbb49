import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelStartContext, ChannelTarget } from '../plugins/sdk/index.js';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Docking, identity links, /status, the text fallback for approvals, and the owner's spend
// notices, across two channels: Telegram (the fake Bot API server) and "loop", a tiny channel
// plugin written in the test through the SDK (a user plugin in HEARTH_HOME/extensions), with text
// out and no buttons. The plugin hands its context to the test through a global bridge.

interface LoopBridge {
  context?: ChannelStartContext<unknown>;
  sent: { target: ChannelTarget; text: string }[];
  listeners: Set<() => void>;
}
const bridge: LoopBridge = { sent: [], listeners: new Set() };
(globalThis as { __hearthLoopChannel?: LoopBridge }).__hearthLoopChannel = bridge;

const LOOP_PLUGIN = `
export default {
  id: 'loop',
  register(api) {
    api.registerChannel({
      id: 'loop',
      create: () => ({
        id: 'loop',
        meta: { name: 'Loop' },
        capabilities: { editMessages: false, threads: false, reactions: false, buttons: false, groups: false,
          media: [], maxMessageLength: 4000, markdown: 'plain' },
        config: { schema: { type: 'object' }, validate: (raw) => raw },
        async start(context) {
          const bridge = globalThis.__hearthLoopChannel;
          bridge.context = context;
          context.reportHealth({ state: 'connected', account: 'loop-bot' });
          return {
            outbound: {
              sendText: async (target, text) => {
                bridge.sent.push({ target, text });
                for (const listener of [...bridge.listeners]) listener();
                return { messageId: String(bridge.sent.length) };
              },
            },
            async dispose() {},
          };
        },
      }),
    });
  },
};
`;

const OWNER = { id: 4242, first_name: 'Olive', username: 'olive' };
const FRIEND = { id: 555, first_name: 'Fred' };
let telegram: FakeTelegramServer;
let product: ProductFixture;
let loopMessages = 0;

function loopSay(sender: string, text: string) {
  loopMessages++;
  return bridge.context!.receive({
    messageId: `loop-${loopMessages}`,
    target: { peerKind: 'direct', peerId: sender },
    sender: { id: sender },
    text,
    ts: Date.now(),
  });
}

/** The first text the loop channel sent (past or future) that satisfies `test`. */
function loopSent(test: (sent: { target: ChannelTarget; text: string }) => boolean) {
  return new Promise<{ target: ChannelTarget; text: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`loop: timed out; sent: ${JSON.stringify(bridge.sent.map((s) => s.text))}`)),
      20_000,
    );
    const check = () => {
      const found = bridge.sent.find(test);
      if (!found) return;
      clearTimeout(timer);
      bridge.listeners.delete(check);
      resolve(found);
    };
    bridge.listeners.add(check);
    check();
  });
}

/** Telegram text as a person reads it (MarkdownV2 escapes taken out). */
const plain = (text: string) => text.replace(/\\(.)/g, '$1');

async function telegramSay(from: typeof OWNER | typeof FRIEND, text: string, expect: RegExp) {
  const before = telegram.botMessages(from.id).length;
  telegram.sendUserMessage({ chatId: from.id, from, text });
  const reply = await telegram.waitForBotMessage(
    from.id,
    (m) => telegram.botMessages(from.id).indexOf(m) >= before && expect.test(plain(m.text)),
  );
  return plain(reply.text);
}

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    config: {
      usage: { timeZone: 'UTC' },
      memory: {
        recall: { enabled: false },
        identityLinks: { owner: [`telegram:${OWNER.id}`, 'loop:olive'] },
      },
      channels: {
        telegram: {
          apiBaseUrl: telegram.url,
          pollTimeoutSeconds: 1,
          allowFrom: [String(OWNER.id), String(FRIEND.id)],
        },
        loop: { allowFrom: ['olive', 'mallory'] },
      },
    },
    before: async (home) => {
      await storeTestSecrets(home, { 'channels.telegram.token': telegram.token });
      const dir = join(home, 'extensions', 'loop');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'hearth.plugin.json'), JSON.stringify({ id: 'loop', main: 'index.js' }));
      await writeFile(join(dir, 'index.js'), LOOP_PLUGIN);
    },
  });
  await waitForChannelConnected(product.socket, 'telegram');
  await waitForChannelConnected(product.socket, 'loop');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

describe('channel commands, docking and notices', () => {
  it('/status answers the model, the session and usage today, without a model turn', async () => {
    const before = product.llm.requests.length;
    const reply = await telegramSay(OWNER, '/status', /Model:/);
    expect(reply).toContain('Model: openai/gpt-4o');
    expect(reply).toContain(`Session: agent:main:telegram:direct:${OWNER.id}`);
    expect(reply).toMatch(/Usage today: \d+k? tokens, \$\d+\.\d\d in \d+ calls/);
    expect(product.llm.requests.length).toBe(before);
  });

  it('/dock_loop moves the conversation to the same person on Loop, keeping the session', async () => {
    product.llm.script([{ type: 'text', text: 'Noted, teal it is' }]);
    await telegramSay(OWNER, 'My favourite colour is teal', /Noted/);
    const moved = await telegramSay(OWNER, '/dock_loop', /Moved/);
    expect(moved).toContain('Moved this conversation to Loop');
    const greeting = await loopSent((s) => s.text.includes('Continuing your conversation from Telegram'));
    expect(greeting.target).toEqual({ peerKind: 'direct', peerId: 'olive' });

    product.llm.script([{ type: 'text', text: 'You said teal' }]);
    await loopSay('olive', 'What is my favourite colour?');
    await loopSent((s) => s.text.includes('You said teal'));
    // Same session: the model saw the Telegram turn, and no loop session was started.
    expect(JSON.stringify(product.llm.requests.at(-1)!.body)).toContain('My favourite colour is teal');
    const sessions = await product.socket.request('sessions.list', {});
    expect(JSON.stringify(sessions.payload)).not.toContain('agent:main:loop:direct:olive');
    const identities = await product.socket.request('channels.identities.list', {});
    expect(identities.payload).toMatchObject({
      identities: [
        {
          person: 'owner',
          dock: { channel: 'loop', sessionKey: `agent:main:telegram:direct:${OWNER.id}` },
          accounts: [
            { account: `telegram:${OWNER.id}`, known: true },
            { account: 'loop:olive', known: true },
          ],
        },
      ],
    });
  });

  it('refuses to dock with a clear reason: not linked, no such channel, already there', async () => {
    expect(await telegramSay(FRIEND, '/dock_loop', /cannot move/)).toContain(
      `your account telegram:${FRIEND.id} is not linked to an account on Loop`,
    );
    expect(await telegramSay(OWNER, '/dock_pigeon', /no channel/)).toMatch(
      /^There is no channel "pigeon" \(channels: .*telegram.*loop/,
    );
    expect(await telegramSay(OWNER, '/dock_telegram', /already/)).toContain('already on Telegram');
  });

  it('on a channel without buttons, an approval is a text the owner answers with /approve', async () => {
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'wc -c HEARTBEAT.md' } }] },
      { type: 'text', text: 'Counted them' },
    ]);
    await loopSay('olive', 'count the bytes of HEARTBEAT.md');
    const prompt = await loopSent((s) => s.text.startsWith('Approval needed'));
    expect(prompt.text).toContain('wc -c HEARTBEAT.md');
    const code = /^Approval needed \(([A-Z2-9]{6})\)/.exec(prompt.text)![1]!;
    expect(prompt.text).toContain(
      `Answer with: /approve ${code} allow|session|always-binary|always-exact|always-folder|deny`,
    );

    // Someone else on the channel cannot answer it: the gateway's /approve refuses them.
    await loopSay('mallory', `/approve ${code} allow-once`);
    const refused = await loopSent((s) => s.target.peerId === 'mallory' && /cannot resolve approvals/.test(s.text));
    expect(refused.text).toContain('missing scope');

    await loopSay('olive', `/approve ${code} allow`);
    await loopSent((s) => s.target.peerId === 'olive' && s.text === '✅ Allowed once');
    await loopSent((s) => s.text === `Approval ${code}: ✅ Allowed once (by loop:olive)`);
    await loopSent((s) => s.text.includes('Counted them'));
  });

  it('tells the owner, once, when a spend cap reaches its warning line and when one runs out', async () => {
    const ownerNotices = () => telegram.botMessages(OWNER.id).filter((m) => /[⚠⛔]/.test(m.text));
    const loopNotices = () => bridge.sent.filter((s) => /^[⚠⛔]/.test(s.text));
    // A day cap just crossed its (lowered) warning line, and a month cap already used up.
    await product.socket.request('config.patch', {
      patch: {
        usage: { warnAt: 0.000_001, limits: { global: { day: { tokens: 100_000_000 }, month: { tokens: 1 } } } },
      },
    });
    await telegram.waitForBotMessage(OWNER.id, (m) => plain(m.text).includes('is used up'));
    await telegram.waitForBotMessage(OWNER.id, (m) => /% of/.test(plain(m.text)));
    await loopSent((s) => s.text.includes('is used up'));
    await loopSent((s) => /% of/.test(s.text));
    expect(ownerNotices()).toHaveLength(2);
    expect(loopNotices()).toHaveLength(2);
    expect(telegram.botMessages(FRIEND.id).filter((m) => /[⚠⛔]/.test(m.text))).toHaveLength(0);

    // Another change re-evaluates the caps: nothing new crossed, so nothing more is sent.
    await product.socket.request('config.patch', { patch: { usage: { warnAt: 0.000_002 } } });
    const status = await telegramSay(OWNER, '/status', /Model:/);
    expect(status).toMatch(/Limit global per month: \d+% used/);
    expect(ownerNotices()).toHaveLength(2);
    expect(loopNotices()).toHaveLength(2);
  });
});
