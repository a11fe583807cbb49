import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// A channel's agentTools through the whole product: the real host, the bundled telegram plugin on
// the fake Bot API, the fake LLM calling the tool. The tool acts on the chat the run's session is
// on (a reaction on the person's last message), never on another chat, and is absent when off.

const OWNER = { id: 4242, first_name: 'Olive', username: 'olive' };
const GROUP = -100500;
let telegram: FakeTelegramServer;
let product: ProductFixture;

/** The fake LLM calls `tool` with `input`, then answers `reply`; the person writes `text`; resolves with the model's requests of that turn. */
async function turnCalling(tool: string, input: unknown, reply: string, chatId = OWNER.id, group = false) {
  const before = product.llm.requests.length;
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: tool, input }] },
    { type: 'text', text: reply },
  ]);
  const updateId = telegram.sendUserMessage({
    chatId,
    from: OWNER,
    text: `please use ${tool}`,
    ...(group ? { chatType: 'supergroup' as const, mentionBot: true } : {}),
  });
  await telegram.waitForBotMessage(chatId, (m) => m.text.includes(reply));
  return { updateId, requests: product.llm.requests.slice(before).map((r) => JSON.stringify(r.body)) };
}

/** Resolves once the channel restarted after a config change and is connected again. */
async function restarted(before: number) {
  for (;;) {
    const seen = product.socket.frames.length;
    const listed = await product.socket.request('channels.list', {});
    const status = (listed.payload as { channels: { id: string; state: string; restarts: number }[] }).channels.find(
      (channel) => channel.id === 'telegram',
    )!;
    if (status.restarts > before && status.state === 'connected') return;
    await product.socket.next(
      (f) => f.event === 'channels.changed' && product.socket.frames.indexOf(f) >= seen,
      20_000,
    );
  }
}
const restartsNow = async () =>
  (
    (await product.socket.request('channels.list', {})).payload as { channels: { id: string; restarts: number }[] }
  ).channels.find((channel) => channel.id === 'telegram')!.restarts;

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  telegram.chatTools.setGroup(GROUP, {
    memberCount: 7,
    admins: [{ status: 'creator', user: { id: OWNER.id, is_bot: false, first_name: 'Olive', username: 'olive' } }],
  });
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false } },
      channels: {
        telegram: { apiBaseUrl: telegram.url, pollTimeoutSeconds: 1, allowFrom: [String(OWNER.id)], agentTools: true },
      },
    },
    before: (home) => storeTestSecrets(home, { 'channels.telegram.token': telegram.token }),
  });
  await waitForChannelConnected(product.socket, 'telegram');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

describe('Telegram agentTools', () => {
  it('the model reacts to the person’s last message in their chat; the prompt says the tools are there', async () => {
    const { requests } = await turnCalling('telegram_react', { emoji: '👍' }, 'Reacted for you');
    expect(telegram.chatTools.reactions).toHaveLength(1);
    const [reaction] = telegram.chatTools.reactions;
    expect(reaction).toMatchObject({ chatId: OWNER.id, emoji: '👍' });
    expect(reaction!.messageId).toBeGreaterThan(0);
    // The system prompt names the tools of this conversation; the model saw the tool's answer.
    expect(requests[0]).toContain('This conversation is on Telegram: telegram_react');
    expect(requests.at(-1)).toContain(`Reacted 👍 to message ${reaction!.messageId}`);
  });

  it('a reaction Telegram does not allow comes back to the model as Telegram’s refusal', async () => {
    const { requests } = await turnCalling('telegram_react', { emoji: '🦖' }, 'That one is not allowed');
    expect(telegram.chatTools.reactions).toHaveLength(1);
    expect(requests.at(-1)).toContain('REACTION_INVALID');
  });

  it('pinning a message of another chat is refused, and nothing is pinned', async () => {
    const before = telegram.calls.filter((c) => c.method === 'pinChatMessage').length;
    const other = await turnCalling('telegram_pin', { messageId: '-100999:5' }, 'Could not pin that');
    expect(other.requests.at(-1)).toContain('is not in this conversation');
    // A chat id argument is not even part of the tool: refused before anything is sent.
    const named = await turnCalling('telegram_pin', { chat_id: -100999, messageId: '5' }, 'No chat ids');
    expect(named.requests.at(-1)).toMatch(/chat_id/);
    expect(telegram.calls.filter((c) => c.method === 'pinChatMessage').length).toBe(before);
    expect(telegram.chatTools.pins).toHaveLength(0);

    // Its own chat's message: pinned there.
    await turnCalling('telegram_pin', {}, 'Pinned it');
    expect(telegram.chatTools.pins).toEqual([{ chatId: OWNER.id, messageId: expect.any(Number), silent: false }]);
  });

  it('in a group, members lists the group’s count and administrators', async () => {
    const { requests } = await turnCalling('telegram_members', {}, 'Seven of you', GROUP, true);
    expect(requests.at(-1)).toContain('7 members');
    expect(requests.at(-1)).toContain('Olive (@olive) [4242]: creator');
  });

  it('the app’s own chat has no Telegram tools', async () => {
    const before = product.llm.requests.length;
    product.llm.script([{ type: 'text', text: 'Hello from the app' }]);
    await product.turn('app-only-1', 'hi', 'agent:main:app-only');
    const body = JSON.stringify(product.llm.requests.slice(before).map((r) => r.body));
    expect(body).not.toContain('telegram_');
  });

  it('turned off (agentTools removed), the tools are gone from the prompt and cannot be called', async () => {
    const before = await restartsNow();
    const patched = await product.socket.request('config.patch', {
      patch: { channels: { telegram: { agentTools: null } } },
    });
    expect(patched.ok).toBe(true);
    await restarted(before);
    const reactions = telegram.chatTools.reactions.length;
    const { requests } = await turnCalling('telegram_react', { emoji: '🔥' }, 'No tools now');
    // (The conversation so far still names them; the system prompt and the tool list do not.)
    const first = JSON.parse(requests[0]!) as { messages: { role: string; content: string }[]; tools: unknown[] };
    expect(first.messages[0]!.content).not.toContain('telegram_');
    expect(JSON.stringify(first.tools)).not.toContain('telegram_');
    expect(requests.at(-1)).toMatch(/telegram_react/);
    expect(telegram.chatTools.reactions.length).toBe(reactions);
  });
});
