import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeDiscordServer, startFakeDiscordServer } from '../testing/fake-discord-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Discord slash commands for the chat commands: registered with a bulk overwrite at start, used
// as a person would in the Discord client (INTERACTION_CREATE over the Gateway), answered by a
// deferred response whose message is then edited with the host's answer, streamed like any reply.
// The same rules as typed commands hold: a stranger gets a pairing code, a non-owner's /approve
// is refused. The real host, the bundled discord plugin, the fake Discord and the fake LLM.

const OWNER = { id: '4242000000000000001', username: 'olive', global_name: 'Olive' };
const FRIEND = { id: '5550000000000000001', username: 'fred', global_name: 'Fred' };
const STRANGER = { id: '7770000000000000001', username: 'sam' };
const GUILD = '9000000000000000001';
const GENERAL = '9000000000000000010';

let discord: FakeDiscordServer;
let product: ProductFixture;

const commandPuts = () =>
  discord.calls.filter((c) => c.method === 'PUT' && c.path === `/applications/${discord.bot.id}/commands`);

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false }, identityLinks: { owner: [`discord:${OWNER.id}`] } },
      channels: { discord: { apiBaseUrl: discord.url, editIntervalMs: 50, allowFrom: [OWNER.id, FRIEND.id] } },
    },
    before: (home) => storeTestSecrets(home, { 'channels.discord.token': discord.token }),
  });
  await waitForChannelConnected(product.socket, 'discord');
  await discord.waitForCall((c) => c.method === 'PUT' && c.path.endsWith('/commands') && c.status === 200);
}, 60_000);

afterAll(async () => {
  await product?.close();
  await discord?.close();
});

/** Uses a slash command; resolves with the interaction's response message once `test` holds for it. */
async function use(input: Parameters<FakeDiscordServer['invokeCommand']>[0], test: (content: string) => boolean) {
  const interaction = discord.invokeCommand(input);
  const answered = await discord.waitForInteractionResponse(interaction.id);
  const channel = input.guildId ? input.channelId! : discord.dmChannelOf(input.user.id);
  const original = await discord.waitForBotMessage(
    channel,
    (m) => m.interaction?.id === interaction.id && m.interaction.role === 'original' && test(m.content),
  );
  return { interaction, response: answered.response!, original };
}

describe('Discord slash commands', () => {
  it('registers the chat commands with one bulk overwrite, idempotent across a restart', async () => {
    const registered = discord.registeredCommands()!;
    const names = registered.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['new', 'approve', 'status', 'learn', 'dock_telegram', 'dock_slack']));
    expect(names).not.toContain('dock_discord');
    const approve = registered.find((c) => c.name === 'approve')!;
    expect(approve.options?.map((o) => [o.name, o.required])).toEqual([
      ['code', true],
      ['answer', true],
    ]);
    expect(approve.options?.[1]?.choices?.map((c) => c.value)).toEqual([
      'allow-once',
      'allow-session',
      'allow-always',
      'deny',
    ]);

    const before = commandPuts().length;
    const ids = registered.map((c) => c.id);
    await product.socket.request('channels.restart', { channel: 'discord' });
    await waitForChannelConnected(product.socket, 'discord');
    await discord.waitForCall((c) => commandPuts().indexOf(c) >= before && c.status === 200);
    // The same set again: same names, same ids (a bulk overwrite replaces, it does not add).
    expect(discord.registeredCommands()!.map((c) => c.id)).toEqual(ids);
    expect(discord.registeredCommands()!.map((c) => c.name)).toEqual(names);
  });

  it('answers /status in a DM: deferred at once, then the deferred message edited with the status', async () => {
    const before = product.llm.requests.length;
    const { response, original } = await use({ name: 'status', user: OWNER }, (c) => c.startsWith('Model:'));
    expect(response.type).toBe(5);
    expect(original.content).toContain(`agent:main:discord:direct:${OWNER.id}`);
    expect(original.thinking).toBe(false);
    // Answered by the host, without a model call.
    expect(product.llm.requests.length).toBe(before);
  });

  it('streams a model reply to /learn into the deferred message', async () => {
    const text = 'A skill worth keeping: **check the logs first**, then restart the service, then tell the team.';
    product.llm.script([{ type: 'text', text, chunkSize: 5 }]);
    const { original } = await use({ name: 'learn', options: { focus: 'debugging' }, user: OWNER }, (c) => c === text);
    expect(original.versions.length).toBeGreaterThanOrEqual(2);
    expect(product.llm.requests.at(-1)?.lastUserText).toContain('/learn debugging');
  });

  it('refuses a slash /approve from someone who is not the owner', async () => {
    const { original } = await use(
      { name: 'approve', options: { code: 'ABC234', answer: 'allow-once' }, user: FRIEND },
      (c) => /cannot resolve approvals/.test(c),
    );
    expect(original.content).toContain('missing scope: operator.approvals');
  });

  it("answers a pending exec approval with the owner's slash /approve, not with a friend's", async () => {
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'wc -c HEARTBEAT.md' } }] },
      { type: 'text', text: 'Counted the bytes.' },
    ]);
    const dm = discord.dmChannelOf(OWNER.id);
    discord.sendUserMessage({ author: OWNER, content: 'count the bytes of HEARTBEAT.md' });
    const prompt = await discord.waitForBotMessage(dm, (m) => m.components.length > 0 && m.content.includes('wc -c'));
    const code = /\(([A-Z2-9]{6})\)/.exec(prompt.content)![1]!;
    const refused = await use({ name: 'approve', options: { code, answer: 'allow-once' }, user: FRIEND }, (c) =>
      /cannot resolve approvals/.test(c),
    );
    expect(refused.original.content).toContain('missing scope');
    const allowed = await use({ name: 'approve', options: { code, answer: 'allow-once' }, user: OWNER }, (c) =>
      c.includes('Allowed once'),
    );
    expect(allowed.original.channelId).toBe(dm);
    await discord.waitForBotMessage(dm, (m) => m.content === 'Counted the bytes.');
  });

  it('gives a stranger the pairing code, and nothing reaches the model', async () => {
    const before = product.llm.requests.length;
    const { original } = await use({ name: 'status', user: STRANGER }, (c) => /pairing code/.test(c));
    expect(original.content).toMatch(/code is [A-Z2-9]{8}/);
    expect(original.content).not.toContain('Model:');
    expect(product.llm.requests.length).toBe(before);
  });

  it('starts afresh with /new in a guild channel, without a mention', async () => {
    const { original } = await use({ name: 'new', user: OWNER, guildId: GUILD, channelId: GENERAL }, (c) =>
      c.startsWith('New session'),
    );
    expect(original.channelId).toBe(GENERAL);
  });

  it('refuses /dock_telegram with the reason when no Telegram account is linked', async () => {
    const { original } = await use({ name: 'dock_telegram', user: OWNER }, (c) => c.startsWith('I cannot move'));
    expect(original.content).toMatch(/not linked|not connected/);
  });
});
