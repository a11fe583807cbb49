import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeBotMessage, type FakeDiscordServer, startFakeDiscordServer } from '../testing/fake-discord-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Exec approvals in Discord: a command the agent wants to run, for a conversation that came from
// Discord, is offered there as a message with buttons (an action row: Allow once / Always / Deny).
// A press arrives as an interaction over the Gateway; only the owner's counts. Anyone else is
// answered with an ephemeral notice only they see, and nothing changes. The first answer wins on
// any surface, and the prompt is edited to say how it ended, its buttons taken away.

const OWNER = { id: '4242000000000000001', username: 'olive', global_name: 'Olive' };
const FRIEND = { id: '5550000000000000001', username: 'fred', global_name: 'Fred' };
let discord: FakeDiscordServer;
let product: ProductFixture;

/** The agent asks to run `command` in the owner's DM; resolves with (a copy of) the prompt it sent there. */
async function askToRun(command: string) {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: `Done with ${command.split(' ')[1]!.slice(1)}` },
  ]);
  const dm = discord.dmChannelOf(OWNER.id);
  const already = discord.botMessages(dm).length;
  discord.sendUserMessage({ author: OWNER, content: `please run ${command}` });
  const prompt = await discord.waitForBotMessage(
    dm,
    (m) => discord.botMessages(dm).indexOf(m) >= already && m.components.length > 0 && m.content.includes(command),
  );
  return { ...prompt, components: structuredClone(prompt.components) };
}

/** Presses `label` as `user`; resolves with the notice the presser alone was shown. */
async function press(prompt: FakeBotMessage, user: typeof OWNER, label: string) {
  // The button as the presser's client shows it (it may be a view from before the prompt was settled).
  const customId = prompt.components.flatMap((row) => row.components).find((b) => b.label === label)!.custom_id!;
  const { id } = discord.pressButton({ messageId: prompt.id, customId, user });
  const answered = await discord.waitForInteractionResponse(id);
  expect(answered.response).toMatchObject({ type: 4, data: { flags: 64 } });
  return answered.response!.data!.content;
}

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false }, identityLinks: { owner: [`discord:${OWNER.id}`] } },
      channels: { discord: { apiBaseUrl: discord.url, editIntervalMs: 100, allowFrom: [OWNER.id, FRIEND.id] } },
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
  await waitForChannelConnected(product.socket, 'discord');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await discord?.close();
});

describe('approval buttons in Discord', () => {
  it('offers Allow once / Always / Deny; a non-owner press is refused, the owner press runs it', async () => {
    const prompt = await askToRun('wc -c HEARTBEAT.md');
    // The host chooses the answers (more may be offered); allowing is blue (1), denying red (4).
    const buttons = prompt.components.flatMap((row) => row.components).map((b) => [b.label, b.style]);
    expect(buttons).toEqual(
      expect.arrayContaining([
        ['Allow once', 1],
        ['Always: exactly this', 1],
        ['Always: in this folder', 1],
        ['Deny', 4],
      ]),
    );
    expect(prompt.content).toMatch(/^Approval needed \([A-Z2-9]{6}\)/);

    // Someone else's press: a notice only they see, and the approval still waits.
    expect(await press(prompt, FRIEND, 'Allow once')).toBe('Only the owner can answer this approval.');
    const listed = await product.socket.request('exec.approval.list', {});
    expect(JSON.stringify(listed.payload)).toContain('wc -c HEARTBEAT.md');

    expect(await press(prompt, OWNER, 'Allow once')).toBe('✅ Allowed once');
    const dm = discord.dmChannelOf(OWNER.id);
    await discord.waitForBotMessage(dm, (m) => m.content.includes('Done with c'));
    const settled = await discord.waitForBotMessage(dm, (m) => m.id === prompt.id && m.components.length === 0);
    expect(settled.content).toContain(`✅ Allowed once (by discord:${OWNER.id})`);
    // The model saw the command's output.
    expect(JSON.stringify(product.llm.requests.at(-1)!.body)).toMatch(/HEARTBEAT\.md/);
  });

  it('first answer wins: answered in the app, the Discord prompt says so and a late press is told', async () => {
    const mark = product.socket.frames.length;
    const prompt = await askToRun('wc -l HEARTBEAT.md');
    const requested = await product.socket.next(
      (frame) => frame.event === 'exec.approval.requested' && product.socket.frames.indexOf(frame) >= mark,
    );
    const { id } = requested.payload as { id: string };
    await product.socket.request('exec.approval.resolve', { id, decision: 'deny' });
    const dm = discord.dmChannelOf(OWNER.id);
    const settled = await discord.waitForBotMessage(dm, (m) => m.id === prompt.id && m.components.length === 0);
    expect(settled.content).toMatch(/❌ Denied \(by operator:/);
    // The buttons are gone; a press that raced the edit (from the view before it) is told.
    expect(await press(prompt, OWNER, 'Always: in this folder')).toBe('This approval is no longer waiting.');
    await discord.waitForBotMessage(dm, (m) => m.content.includes('Done with l'));
  });
});
