import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeDiscordServer, startFakeDiscordServer } from '../testing/fake-discord-server.js';
import { type FakeSlackServer, startFakeSlackServer } from '../testing/fake-slack-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Discord's and Slack's agentTools through the whole product: the fake LLM calls the tool, the
// fake platform records the call, on the conversation the person wrote from and no other.

const D_OWNER = { id: '4242000000000000001', username: 'olive', global_name: 'Olive' };
const GUILD = '9000000000000000001';
const GENERAL = '9000000000000000010';
const S_OWNER = 'UOWNER09';
const S_DM = 'DOWNER09';
const S_CHANNEL = 'CTEAM0009';
let discord: FakeDiscordServer;
let slack: FakeSlackServer;
let product: ProductFixture;

/** The fake LLM calls `tool` with `input`, then says `reply`; `send` delivers the person's message; resolves with the turn's model requests. */
async function turn(tool: string, input: unknown, reply: string, send: () => void, replied: () => Promise<unknown>) {
  const before = product.llm.requests.length;
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: tool, input }] },
    { type: 'text', text: reply },
  ]);
  send();
  await replied();
  return product.llm.requests.slice(before).map((r) => JSON.stringify(r.body));
}

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  slack = await startFakeSlackServer();
  discord.chatTools.setGuild(
    GUILD,
    [GENERAL],
    [{ user: { id: D_OWNER.id, username: 'olive', global_name: 'Olive' }, nick: 'Liv', roles: [] }],
  );
  slack.chatTools.setMembers(S_CHANNEL, [S_OWNER, 'UFRIEND9', 'UTHIRD99']);
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false } },
      channels: {
        discord: { apiBaseUrl: discord.url, editIntervalMs: 100, allowFrom: [D_OWNER.id], agentTools: true },
        slack: {
          apiBaseUrl: slack.apiUrl,
          editIntervalMs: 100,
          allowFrom: [S_OWNER],
          agentTools: ['react', 'members'],
        },
      },
    },
    before: (home) =>
      storeTestSecrets(home, {
        'channels.discord.token': discord.token,
        'channels.slack.token': slack.botToken,
        'channels.slack.appToken': slack.appToken,
      }),
  });
  await waitForChannelConnected(product.socket, 'discord');
  await waitForChannelConnected(product.socket, 'slack');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await discord?.close();
  await slack?.close();
});

describe('Discord agentTools', () => {
  it('reacts to and pins the person’s message in their guild channel, and lists the server’s members', async () => {
    let messageId = '';
    const send = (content: string) => () => {
      messageId = discord.sendUserMessage({
        channelId: GENERAL,
        guildId: GUILD,
        author: D_OWNER,
        content,
        mentionBot: true,
      });
    };
    const replied = (text: string) => () => discord.waitForBotMessage(GENERAL, (m) => m.content.includes(text));
    await turn('discord_react', { emoji: '👍' }, 'Thumbs up', send('react please'), replied('Thumbs up'));
    expect(discord.chatTools.reactions).toEqual([{ channelId: GENERAL, messageId, emoji: '👍' }]);

    await turn('discord_pin', {}, 'Pinned', send('pin this'), replied('Pinned'));
    expect(discord.chatTools.pins).toEqual([{ channelId: GENERAL, messageId }]);

    const requests = await turn('discord_members', {}, 'One of you', send('who is here?'), replied('One of you'));
    expect(requests.at(-1)).toContain('Liv (@olive) [4242000000000000001]');
  });

  it('a message of another channel is refused and nothing is pinned there', async () => {
    const pins = discord.chatTools.pins.length;
    const requests = await turn(
      'discord_pin',
      { messageId: '9000000000000000099:9000000000000000777' },
      'Not that one',
      () =>
        void discord.sendUserMessage({
          channelId: GENERAL,
          guildId: GUILD,
          author: D_OWNER,
          content: 'pin theirs',
          mentionBot: true,
        }),
      () => discord.waitForBotMessage(GENERAL, (m) => m.content.includes('Not that one')),
    );
    expect(requests.at(-1)).toContain('is not in this conversation');
    expect(discord.chatTools.pins.length).toBe(pins);
  });
});

describe('Slack agentTools', () => {
  it('reacts in the person’s DM (the D… conversation they wrote from) with the emoji name', async () => {
    let ts = '';
    const requests = await turn(
      'slack_react',
      { emoji: ':eyes:' },
      'Looking',
      () => {
        ts = slack.sendUserMessage({ channel: S_DM, user: S_OWNER, text: 'look at this' }).ts;
      },
      () => slack.waitForBotMessage(S_DM, (m) => m.text.includes('Looking')),
    );
    expect(slack.chatTools.reactions).toEqual([{ channel: S_DM, timestamp: ts, name: 'eyes' }]);
    expect(requests.at(-1)).toContain(`Reacted :eyes: to message ${ts}`);
  });

  it('lists a channel’s members; pin, not in its agentTools list, is absent', async () => {
    const requests = await turn(
      'slack_members',
      {},
      'Three here',
      () =>
        void slack.sendUserMessage({
          channel: S_CHANNEL,
          user: S_OWNER,
          text: 'who?',
          channelType: 'channel',
          mentionBot: true,
        }),
      () => slack.waitForBotMessage(S_CHANNEL, (m) => m.text.includes('Three here')),
    );
    expect(requests.at(-1)).toContain('3 members');
    expect(requests.at(-1)).toContain('UTHIRD99');
    const first = JSON.parse(requests[0]!) as { messages: { content: string }[] };
    expect(first.messages[0]!.content).toContain('slack_members');
    expect(first.messages[0]!.content).not.toContain('slack_pin');
    expect(slack.chatTools.pins).toHaveLength(0);
  });
});
