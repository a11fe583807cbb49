import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import {
  type FakeBotMessage,
  type FakeTelegramServer,
  startFakeTelegramServer,
} from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Exec approvals in Telegram: a command the agent wants to run, for a conversation that came from
// Telegram, is offered there as an inline keyboard (Allow once / Always / Deny). Only the owner's
// account may press; someone else's press is answered with a notice and changes nothing. The first
// answer wins on any surface, and the prompt is edited to say how it ended.

const OWNER = { id: 4242, first_name: 'Olive', username: 'olive' };
const FRIEND = { id: 555, first_name: 'Fred' };
let telegram: FakeTelegramServer;
let product: ProductFixture;

/** The agent asks to run `command` in `chatId`'s conversation; resolves with the prompt it sent there. */
async function askToRun(chatId: number, from: typeof OWNER | typeof FRIEND, command: string, where = chatId) {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: `Done with ${command.split(' ')[1]!.slice(1)}` },
  ]);
  const already = telegram.botMessages(where).length;
  telegram.sendUserMessage({ chatId, from, text: `please run ${command}` });
  const prompt = await telegram.waitForBotMessage(
    where,
    (m) => telegram.botMessages(where).indexOf(m) >= already && m.keyboard !== undefined && m.text.includes(command),
  );
  // A copy: the server's message loses its keyboard once the prompt is settled.
  return { ...prompt };
}

const dataOf = (prompt: FakeBotMessage, label: string) =>
  prompt.keyboard!.flat().find((button) => button.text === label)!.callback_data!;

async function press(prompt: FakeBotMessage, from: { id: number; first_name: string }, label: string) {
  const id = telegram.pressButton({
    chatId: prompt.chatId,
    messageId: prompt.messageId,
    from,
    data: dataOf(prompt, label),
  });
  await telegram.waitForCall('answerCallbackQuery', (call) => call.params.callback_query_id === id);
  return telegram.callbackAnswers.get(id)?.text;
}

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false }, identityLinks: { owner: [`telegram:${OWNER.id}`] } },
      channels: {
        telegram: {
          apiBaseUrl: telegram.url,
          pollTimeoutSeconds: 1,
          allowFrom: [String(OWNER.id), String(FRIEND.id)],
        },
      },
    },
    before: async (home) => {
      await storeTestSecrets(home, { 'channels.telegram.token': telegram.token });
    },
  });
  await waitForChannelConnected(product.socket, 'telegram');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

describe('approval buttons in Telegram', () => {
  it('offers Allow once / for this chat / Always / Deny; a stranger press is refused, the owner press runs it', async () => {
    const prompt = await askToRun(OWNER.id, OWNER, 'wc -c HEARTBEAT.md');
    // The inline card's choices: one Always per scope, "in this folder" too, each said in the text.
    expect(prompt.keyboard!.flat().map((b) => b.text)).toEqual([
      'Allow once',
      'Allow for this chat',
      'Always: any arguments',
      'Always: exactly this',
      'Always: in this folder',
      'Deny',
    ]);
    expect(prompt.text).toMatch(/^Approval needed \([A-Z2-9]{6}\)/);
    expect(prompt.text).toMatch(/Always: in this folder: this exact command, only in .* and the folders under it/);

    // Someone else's press (e.g. a forwarded prompt): a notice to them, the approval still waits.
    expect(await press(prompt, FRIEND, 'Allow once')).toBe('Only the owner can answer this approval.');
    const listed = await product.socket.request('exec.approval.list', {});
    expect(JSON.stringify(listed.payload)).toContain('wc -c HEARTBEAT.md');

    expect(await press(prompt, OWNER, 'Allow once')).toBe('✅ Allowed once');
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('Done with c'));
    const settled = telegram.botMessages(OWNER.id).find((m) => m.messageId === prompt.messageId)!;
    expect(settled.keyboard).toBeUndefined();
    expect(settled.text).toContain(`✅ Allowed once (by telegram:${OWNER.id})`);
    // The model saw the command's output.
    expect(JSON.stringify(product.llm.requests.at(-1)!.body)).toMatch(/HEARTBEAT\.md/);
  });

  it('first answer wins: answered in the app, the Telegram prompt says so and a late press is told', async () => {
    const mark = product.socket.frames.length;
    const prompt = await askToRun(OWNER.id, OWNER, 'wc -l HEARTBEAT.md');
    const requested = await product.socket.next(
      (frame) => frame.event === 'exec.approval.requested' && product.socket.frames.indexOf(frame) >= mark,
    );
    const { id } = requested.payload as { id: string };
    await product.socket.request('exec.approval.resolve', { id, decision: 'deny' });
    const settled = await telegram.waitForBotMessage(
      OWNER.id,
      (m) => m.messageId === prompt.messageId && m.keyboard === undefined,
    );
    expect(settled.text).toMatch(/❌ Denied \(by operator:/);
    expect(await press(prompt, OWNER, 'Always: in this folder')).toBe('This approval is no longer waiting.');
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('Done with l'));
  });

  it('"Always: in this folder" saves a folder rule; a destructive command puts Deny first and offers only exact / folder', async () => {
    const prompt = await askToRun(OWNER.id, OWNER, 'wc -L HEARTBEAT.md');
    expect(await press(prompt, OWNER, 'Always: in this folder')).toBe('✅ Always allowed: in this folder');
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('Done with L'));
    const rules = await product.socket.request('permissions.list', {});
    expect(JSON.stringify(rules.payload)).toMatch(/"scope":"folder"/);

    const risky = await askToRun(OWNER.id, OWNER, 'rm -r build');
    expect(risky.keyboard!.flat().map((b) => b.text)).toEqual([
      'Deny',
      'Allow once',
      'Allow for this chat',
      'Always: exactly this',
      'Always: in this folder',
    ]);
    expect(risky.text).toMatch(/^⚠️ Destructive, cannot be undone: /);
    expect(await press(risky, OWNER, 'Deny')).toBe('❌ Denied');
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('Done with r'));
  });

  it('"Allow for this chat" runs it, and the same command in the same chat later runs without asking', async () => {
    const prompt = await askToRun(OWNER.id, OWNER, 'wc -m HEARTBEAT.md');
    expect(await press(prompt, OWNER, 'Allow for this chat')).toBe('✅ Allowed for this chat');
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('Done with m'));
    const settled = telegram.botMessages(OWNER.id).find((m) => m.messageId === prompt.messageId)!;
    expect(settled.text).toContain('✅ Allowed for this chat');

    const mark = product.socket.frames.length;
    const prompts = telegram.botMessages(OWNER.id).filter((m) => m.keyboard !== undefined).length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'wc -m HEARTBEAT.md' } }] },
      { type: 'text', text: 'Counted again' },
    ]);
    telegram.sendUserMessage({ chatId: OWNER.id, from: OWNER, text: 'count them again' });
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('Counted again'));
    expect(telegram.botMessages(OWNER.id).filter((m) => m.keyboard !== undefined).length).toBe(prompts);
    expect(product.socket.frames.slice(mark).some((f) => f.event === 'exec.approval.requested')).toBe(false);
  });

  it("a friend's conversation asks the owner, in the owner's DM; the friend cannot /approve it", async () => {
    const prompt = await askToRun(FRIEND.id, FRIEND, 'wc -w HEARTBEAT.md', OWNER.id);
    expect(prompt.text).toContain(`for telegram:${FRIEND.id}'s conversation`);
    const code = /\(([A-Z2-9]{6})\)/.exec(prompt.text)![1]!;
    telegram.sendUserMessage({ chatId: FRIEND.id, from: FRIEND, text: `/approve ${code} allow-once` });
    const refused = await telegram.waitForBotMessage(FRIEND.id, (m) => /cannot resolve approvals/.test(m.text));
    expect(refused.text).toContain('missing scope');
    expect(await press(prompt, OWNER, 'Deny')).toBe('❌ Denied');
    await telegram.waitForBotMessage(FRIEND.id, (m) => m.text.includes('Done with w'));
  });
});
