import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeDiscordServer, startFakeDiscordServer } from '../testing/fake-discord-server.js';
import { type FakeSlackBotMessage, type FakeSlackServer, startFakeSlackServer } from '../testing/fake-slack-server.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Approval prompts in the person's language: with `ui.language` "zh" in hearth.json (what
// Settings → Language writes), the prompt, its buttons, the notices a press gets and the settled
// line are Chinese in Telegram, Discord and Slack (fake servers speaking each real API); the
// `/approve` words stay as typed. The language is read for each prompt: switched back to English
// live, the next prompt is English.

const script = (product: ProductFixture, command: string) =>
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: `Done with ${command.split(' ')[1]!.slice(1)}` },
  ]);

async function secrets(home: string, entries: Record<string, string>) {
  const { store } = await openSecretStore({
    paths: createHearthPaths(home),
    log: silentLogger,
    env: { HEARTH_SECRET_STORE: 'file' },
  });
  for (const [key, value] of Object.entries(entries)) await store.set(key, value);
}

const ZH_BUTTONS = [
  '允许一次',
  '在此对话中允许',
  '始终允许：任意参数',
  '始终允许：仅此命令',
  '始终允许：仅在此文件夹',
  '拒绝',
];

describe('approval prompts in Chinese: Telegram', () => {
  const OWNER = { id: 4343, first_name: 'Olive' };
  const FRIEND = { id: 565, first_name: 'Fred' };
  let telegram: FakeTelegramServer;
  let product: ProductFixture;
  beforeAll(async () => {
    telegram = await startFakeTelegramServer();
    product = await startProductFixture({
      config: {
        ui: { language: 'zh' },
        memory: { recall: { enabled: false }, identityLinks: { owner: [`telegram:${OWNER.id}`] } },
        channels: {
          telegram: {
            apiBaseUrl: telegram.url,
            pollTimeoutSeconds: 1,
            allowFrom: [String(OWNER.id), String(FRIEND.id)],
          },
        },
      },
      before: (home) => secrets(home, { 'channels.telegram.token': telegram.token }),
    });
    await waitForChannelConnected(product.socket, 'telegram');
  }, 60_000);
  afterAll(async () => {
    await product?.close();
    await telegram?.close();
  });

  async function ask(command: string) {
    script(product, command);
    const already = telegram.botMessages(OWNER.id).length;
    telegram.sendUserMessage({ chatId: OWNER.id, from: OWNER, text: `please run ${command}` });
    const prompt = await telegram.waitForBotMessage(
      OWNER.id,
      (m) =>
        telegram.botMessages(OWNER.id).indexOf(m) >= already && m.keyboard !== undefined && m.text.includes(command),
    );
    return { ...prompt };
  }
  async function press(
    prompt: Awaited<ReturnType<typeof ask>>,
    from: { id: number; first_name: string },
    label: string,
  ) {
    const data = prompt.keyboard!.flat().find((button) => button.text === label)!.callback_data!;
    const id = telegram.pressButton({ chatId: prompt.chatId, messageId: prompt.messageId, from, data });
    await telegram.waitForCall('answerCallbackQuery', (call) => call.params.callback_query_id === id);
    return telegram.callbackAnswers.get(id)?.text;
  }

  it('the prompt, its buttons, the notices and the settled line are Chinese; switched to English live, the next is English', async () => {
    const prompt = await ask('wc -c HEARTBEAT.md');
    expect(prompt.keyboard!.flat().map((b) => b.text)).toEqual(ZH_BUTTONS);
    expect(prompt.text).toMatch(/^需要批准（[A-Z2-9]{6}）：助手想要运行\nwc -c HEARTBEAT\.md\n/);
    expect(prompt.text).toMatch(/\n位置：/);
    // The reasons are worded from their codes, not the policy's English details.
    expect(prompt.text).toContain('\n原因：该程序不在允许列表中\n');
    expect(prompt.text).toMatch(/始终允许：仅在此文件夹：这条完全相同的命令，仅在 .* 及其子文件夹中/);
    expect(await press(prompt, FRIEND, '允许一次')).toBe('只有所有者可以回复此批准。');
    expect(await press(prompt, OWNER, '允许一次')).toBe('✅ 已允许一次');
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('Done with c'));
    const settled = telegram.botMessages(OWNER.id).find((m) => m.messageId === prompt.messageId)!;
    expect(settled.text).toContain(`✅ 已允许一次 (由 telegram:${OWNER.id})`);
    expect(await press(prompt, OWNER, '拒绝')).toBe('此批准已不再等待。');

    expect((await product.socket.request('config.patch', { patch: { ui: { language: 'en' } } })).ok).toBe(true);
    const english = await ask('wc -l HEARTBEAT.md');
    expect(english.text).toMatch(/^Approval needed \(/);
    expect(english.keyboard!.flat().map((b) => b.text)).toContain('Allow once');
    expect(await press(english, OWNER, 'Deny')).toBe('❌ Denied');
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('Done with l'));
  });
});

describe('approval prompts in Chinese: Discord', () => {
  const OWNER = { id: '4343000000000000001', username: 'olive', global_name: 'Olive' };
  let discord: FakeDiscordServer;
  let product: ProductFixture;
  beforeAll(async () => {
    discord = await startFakeDiscordServer();
    product = await startProductFixture({
      config: {
        ui: { language: 'zh' },
        memory: { recall: { enabled: false }, identityLinks: { owner: [`discord:${OWNER.id}`] } },
        channels: { discord: { apiBaseUrl: discord.url, editIntervalMs: 100, allowFrom: [OWNER.id] } },
      },
      before: (home) => secrets(home, { 'channels.discord.token': discord.token }),
    });
    await waitForChannelConnected(product.socket, 'discord');
  }, 60_000);
  afterAll(async () => {
    await product?.close();
    await discord?.close();
  });

  it('buttons and notices in Chinese; the prompt is edited to say how it ended, in Chinese', async () => {
    const command = 'wc -w HEARTBEAT.md';
    script(product, command);
    const dm = discord.dmChannelOf(OWNER.id);
    const already = discord.botMessages(dm).length;
    discord.sendUserMessage({ author: OWNER, content: `please run ${command}` });
    const prompt = await discord.waitForBotMessage(
      dm,
      (m) => discord.botMessages(dm).indexOf(m) >= already && m.components.length > 0 && m.content.includes(command),
    );
    const buttons = structuredClone(prompt.components).flatMap((row) => row.components);
    expect(buttons.map((b) => b.label)).toEqual(ZH_BUTTONS);
    expect(prompt.content).toMatch(/^需要批准（[A-Z2-9]{6}）/);
    const { id } = discord.pressButton({
      messageId: prompt.id,
      customId: buttons.find((b) => b.label === '拒绝')!.custom_id!,
      user: OWNER,
    });
    expect((await discord.waitForInteractionResponse(id)).response!.data!.content).toBe('❌ 已拒绝');
    const settled = await discord.waitForBotMessage(dm, (m) => m.id === prompt.id && m.components.length === 0);
    expect(settled.content).toContain(`❌ 已拒绝 (由 discord:${OWNER.id})`);
  });
});

describe('approval prompts in Chinese: Slack', () => {
  const OWNER = 'UOWNERZH';
  const OWNER_DM = 'DOWNERZH';
  let slack: FakeSlackServer;
  let product: ProductFixture;
  beforeAll(async () => {
    slack = await startFakeSlackServer();
    product = await startProductFixture({
      config: {
        ui: { language: 'zh' },
        memory: { recall: { enabled: false }, identityLinks: { owner: [`slack:${OWNER}`] } },
        channels: { slack: { mode: 'socket', apiBaseUrl: slack.apiUrl, editIntervalMs: 100, allowFrom: [OWNER] } },
      },
      before: (home) =>
        secrets(home, {
          'channels.slack.token': slack.botToken,
          'channels.slack.appToken': slack.appToken,
          'channels.slack.signingSecret': slack.signingSecret,
        }),
    });
    await waitForChannelConnected(product.socket, 'slack');
  }, 60_000);
  afterAll(async () => {
    await product?.close();
    await slack?.close();
  });

  const buttonsOf = (message: FakeSlackBotMessage) =>
    message.blocks
      .filter((block) => block.type === 'actions')
      .flatMap((block) => block.elements as { text: { text: string }; action_id: string }[]);

  it('Block Kit buttons and the notice in Chinese; the prompt is updated in Chinese', async () => {
    const command = 'wc -m HEARTBEAT.md';
    script(product, command);
    const already = slack.botMessages(OWNER_DM).length;
    await slack.sendUserMessage({ channel: OWNER_DM, user: OWNER, text: `please run ${command}` });
    const prompt = await slack.waitForBotMessage(
      OWNER_DM,
      (m) => slack.botMessages(OWNER_DM).indexOf(m) >= already && buttonsOf(m).length > 0 && m.text.includes(command),
    );
    const buttons = buttonsOf({ ...prompt, blocks: structuredClone(prompt.blocks) });
    expect(buttons.map((b) => b.text.text)).toEqual(ZH_BUTTONS);
    expect(prompt.text).toMatch(/^需要批准（[A-Z2-9]{6}）/);
    const before = slack.ephemerals.length;
    const envelopeId = slack.pressButton({
      channel: prompt.channel,
      ts: prompt.ts,
      user: { id: OWNER },
      actionId: buttons.find((b) => b.text.text === '允许一次')!.action_id,
    });
    await slack.waitForEnvelopeAck(envelopeId);
    expect((await slack.waitForEphemeral(OWNER, (m) => slack.ephemerals.indexOf(m) >= before)).text).toBe(
      '✅ 已允许一次',
    );
    await slack.waitForBotMessage(OWNER_DM, (m) => m.text.includes('Done with m'));
    const settled = await slack.waitForBotMessage(
      OWNER_DM,
      (m) => m.ts === prompt.ts && buttonsOf(m).length === 0 && m.text.includes('✅'),
    );
    expect(settled.text).toContain(`✅ 已允许一次 (由 slack:${OWNER})`);
  });
});
