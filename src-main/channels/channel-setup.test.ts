import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';

// The setup wizard's gateway side (channels.setup.describe / apply), enable/disable and identity
// links, in the real composed host with the bundled Telegram plugin against the fake Bot API on
// loopback. The webhook channel is configured beside it, to see that only Telegram restarts.

let telegram: FakeTelegramServer;
let product: ProductFixture;

interface View {
  id: string;
  state: string;
  restarts: number;
  account?: string;
  error?: string;
  enabled: boolean;
}

let socket: ProductFixture['socket'];
async function call(method: string, params: unknown) {
  return socket.request(method, params, 30_000);
}
async function ok<T>(method: string, params: unknown): Promise<T> {
  const answer = await call(method, params);
  if (!answer.ok) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.payload as T;
}
async function view(id: string): Promise<View> {
  const { channels } = await ok<{ channels: View[] }>('channels.list', {});
  return channels.find((c) => c.id === id)!;
}
const hearthJson = () => readFile(join(product.home, 'hearth.json'), 'utf8');
async function storedSecret(account: string) {
  const { store } = await openSecretStore({
    paths: createHearthPaths(product.home),
    log: silentLogger,
    env: { HEARTH_SECRET_STORE: 'file' },
  });
  return store.get(account);
}

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    config: {
      memory: { recall: { enabled: false } },
      channels: { webhook: { outboundUrl: 'http://127.0.0.1:9/replies' } },
    },
  });
  socket = product.socket;
}, 60_000);

afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

describe('channels.setup', () => {
  it('describes the Telegram wizard: its questions, the host’s DM policy, and no secret value', async () => {
    const described = await ok<{
      name: string;
      configured: boolean;
      steps: string[];
      fields: { key: string; kind: string; required?: boolean; stored?: boolean; secretAccount?: string }[];
    }>('channels.setup.describe', { channel: 'telegram' });
    expect(described.name).toBe('Telegram');
    expect(described.configured).toBe(false);
    expect(described.steps.join(' ')).toContain('@BotFather');
    const token = described.fields.find((f) => f.key === 'token')!;
    expect(token).toMatchObject({
      kind: 'secret',
      required: true,
      stored: false,
      secretAccount: 'channels.telegram.token',
    });
    expect(described.fields.map((f) => f.key)).toEqual([
      'token',
      'mode',
      'webhookUrl',
      'apiBaseUrl',
      'pollTimeoutSeconds',
      'editIntervalMs',
      'dmPolicy',
    ]);
    const unknown = await call('channels.setup.describe', { channel: 'carrier-pigeon' });
    expect(unknown.error?.code).toBe('NOT_FOUND');
    expect(unknown.error?.message).toContain('telegram');
  });

  it('refuses bad answers naming the field, and writes nothing', async () => {
    const before = await hearthJson();
    const cases: { values: Record<string, unknown>; field: string; says: RegExp }[] = [
      {
        values: { token: telegram.token, mode: 'carrier-pigeon' },
        field: 'mode',
        says: /must be one of polling, webhook/,
      },
      {
        values: { token: telegram.token, mode: 'webhook' },
        field: 'webhookUrl',
        says: /Public webhook URL.*is required/,
      },
      {
        values: { token: telegram.token, colour: 'teal' },
        field: 'colour',
        says: /is not asked by the Telegram setup/,
      },
      { values: { token: telegram.token, pollTimeoutSeconds: 99 }, field: 'pollTimeoutSeconds', says: /from 1 to 50/ },
      { values: { token: telegram.token, pollTimeoutSeconds: 'soon' }, field: 'pollTimeoutSeconds', says: /number/ },
      { values: { mode: 'polling' }, field: 'token', says: /Bot token.*is required/ },
      { values: { token: 'two words' }, field: 'token', says: /spaces/ },
    ];
    for (const { values, field, says } of cases) {
      const answer = await call('channels.setup.apply', { channel: 'telegram', values });
      expect(answer.ok, JSON.stringify(values)).toBe(false);
      expect(answer.error?.code).toBe('INVALID_REQUEST');
      expect(answer.error?.message).toMatch(says);
      expect((answer.error?.details as { field?: string } | undefined)?.field).toBe(field);
    }
    expect(await hearthJson()).toBe(before);
    expect(await storedSecret('channels.telegram.token')).toBeUndefined();
    expect((await view('telegram')).state).toBe('stopped');
  });

  it('a wrong token is a failed test; the secret goes to the secret store, never hearth.json', async () => {
    const webhookBefore = await view('webhook');
    const result = await ok<{
      channel: View;
      changedPaths: string[];
      secretsStored: string[];
      test: { ok: boolean; state: string; error?: string };
    }>('channels.setup.apply', {
      channel: 'telegram',
      values: { token: '999:WRONG-token', apiBaseUrl: telegram.url, pollTimeoutSeconds: 1, mode: 'polling' },
      test: true,
    });
    expect(result.secretsStored).toEqual(['channels.telegram.token']);
    expect(result.test.ok).toBe(false);
    expect(result.test.state).toBe('error');
    expect(result.test.error).toContain('Telegram rejected the bot token');
    expect(result.test.error).not.toContain('WRONG');
    const written = await hearthJson();
    expect(written).not.toContain('WRONG');
    // Only what differs from the defaults is written (mode polling is the default).
    expect(JSON.parse(written).channels.telegram).toEqual({ apiBaseUrl: telegram.url, pollTimeoutSeconds: 1 });
    expect(await storedSecret('channels.telegram.token')).toBe('999:WRONG-token');
    const webhookAfter = await view('webhook');
    expect(webhookAfter.restarts).toBe(webhookBefore.restarts);
  });

  it('only a new token: the channel restarts with it, connects, and the webhook channel is untouched', async () => {
    const webhookBefore = await view('webhook');
    const telegramBefore = await view('telegram');
    const configBefore = await hearthJson();
    const result = await ok<{ channel: View; changedPaths: string[]; test: { ok: boolean; account?: string } }>(
      'channels.setup.apply',
      { channel: 'telegram', values: { token: telegram.token }, test: true },
    );
    expect(result.test).toMatchObject({ ok: true, account: `@${telegram.bot.username}` });
    expect(result.changedPaths).toEqual([]);
    expect(result.channel.restarts).toBe(telegramBefore.restarts + 1);
    expect(await hearthJson()).toBe(configBefore);
    expect(await hearthJson()).not.toContain(telegram.token);
    expect(await storedSecret('channels.telegram.token')).toBe(telegram.token);
    expect((await view('webhook')).restarts).toBe(webhookBefore.restarts);

    const described = await ok<{ configured: boolean; fields: { key: string; stored?: boolean; value?: unknown }[] }>(
      'channels.setup.describe',
      { channel: 'telegram' },
    );
    expect(described.configured).toBe(true);
    expect(described.fields.find((f) => f.key === 'token')).toMatchObject({ stored: true });
    expect(described.fields.find((f) => f.key === 'token')).not.toHaveProperty('value');
    expect(described.fields.find((f) => f.key === 'apiBaseUrl')?.value).toBe(telegram.url);
  });

  it('a settings change restarts Telegram only, and keeps keys the wizard does not ask', async () => {
    await ok('config.patch', { patch: { channels: { telegram: { allowFrom: ['4242'] } } } });
    await product.host.ready;
    const webhookBefore = await view('webhook');
    const result = await ok<{ changedPaths: string[]; test: { ok: boolean } }>('channels.setup.apply', {
      channel: 'telegram',
      values: { editIntervalMs: 200, dmPolicy: 'allowlist' },
      test: true,
    });
    expect(result.test.ok).toBe(true);
    expect(result.changedPaths.every((path) => path.startsWith('channels.telegram'))).toBe(true);
    expect(JSON.parse(await hearthJson()).channels.telegram).toEqual({
      apiBaseUrl: telegram.url,
      pollTimeoutSeconds: 1,
      allowFrom: ['4242'],
      editIntervalMs: 200,
      dmPolicy: 'allowlist',
    });
    expect((await view('webhook')).restarts).toBe(webhookBefore.restarts);
  });

  it('disables and enables a channel', async () => {
    const off = await ok<{ channel: View }>('channels.setEnabled', { channel: 'telegram', enabled: false });
    expect(off.channel).toMatchObject({ enabled: false, state: 'stopped' });
    expect(JSON.parse(await hearthJson()).channels.telegram.enabled).toBe(false);
    await ok('channels.setEnabled', { channel: 'telegram', enabled: true });
    expect(JSON.parse(await hearthJson()).channels.telegram).not.toHaveProperty('enabled');
    const notSetUp = await call('channels.setEnabled', { channel: 'discord', enabled: true });
    expect(notSetUp.error?.message).toContain('channels.discord is not set up yet');
  });

  it('needs admin: a read-only client may not describe or apply', async () => {
    const { socket } = await connectRaw(product.host.wsUrl, { token: product.host.token, scopes: ['operator.read'] });
    try {
      const answer = await socket.request('channels.setup.apply', { channel: 'telegram', values: { token: 'x:y' } });
      expect(answer.ok).toBe(false);
      expect(answer.error?.message).toMatch(/operator\.admin/);
      expect((await socket.request('channels.setup.describe', { channel: 'telegram' })).ok).toBe(false);
    } finally {
      socket.close();
    }
    expect(await storedSecret('channels.telegram.token')).toBe(telegram.token);
  });
});

describe('channels.identities.link / unlink', () => {
  // A connection of its own: the setup tests used much of the first one's control-plane write budget.
  beforeAll(async () => {
    socket = (await connectRaw(product.host.wsUrl, { token: product.host.token, scopes: ['operator.admin'] })).socket;
  });
  afterAll(() => socket.close());

  it('links the owner’s account in memory.identityLinks, refuses a second person, and unlinks', async () => {
    const linked = await ok<{ identities: { person: string; accounts: { account: string; known: boolean }[] }[] }>(
      'channels.identities.link',
      { person: 'owner', account: 'telegram:4242' },
    );
    expect(linked.identities).toEqual([
      { person: 'owner', accounts: [{ account: 'telegram:4242', channel: 'telegram', userId: '4242', known: true }] },
    ]);
    expect(JSON.parse(await hearthJson()).memory.identityLinks).toEqual({ owner: ['telegram:4242'] });
    // Linking it again is a no-op; to another person, a conflict naming who has it.
    await ok('channels.identities.link', { person: 'owner', account: 'telegram:4242' });
    const elsewhere = await call('channels.identities.link', { person: 'ann', account: 'telegram:4242' });
    expect(elsewhere.error?.message).toContain('linked to "owner" already');
    const noChannel = await call('channels.identities.link', { person: 'owner', account: 'pigeon:1' });
    expect(noChannel.error?.code).toBe('NOT_FOUND');
    const malformed = await call('channels.identities.link', { person: 'owner', account: 'telegram' });
    expect(malformed.error?.message).toContain('<channel>:<user id>');
    const badPerson = await call('channels.identities.link', { person: 'the owner', account: 'telegram:1' });
    expect(badPerson.error?.message).toContain('a person is');

    await ok('channels.identities.link', { person: 'owner', account: 'webhook:home-assistant' });
    await ok('channels.identities.unlink', { person: 'owner', account: 'telegram:4242' });
    expect(JSON.parse(await hearthJson()).memory.identityLinks).toEqual({ owner: ['webhook:home-assistant'] });
    const emptied = await ok<{ identities: unknown[] }>('channels.identities.unlink', {
      person: 'owner',
      account: 'webhook:home-assistant',
    });
    expect(emptied.identities).toEqual([]);
    expect(JSON.parse(await hearthJson()).memory.identityLinks).toEqual({});
    const again = await call('channels.identities.unlink', { person: 'owner', account: 'telegram:4242' });
    expect(again.error?.code).toBe('NOT_FOUND');
  });
});

describe('channels.settings.set (the app’s per-channel settings)', () => {
  beforeAll(async () => {
    socket = (await connectRaw(product.host.wsUrl, { token: product.host.token, scopes: ['operator.admin'] })).socket;
  });
  afterAll(() => socket.close());

  it('writes DM policy, allowFrom, groups and agentTools; restarts that channel only; refuses a bad entry naming it', async () => {
    const webhookBefore = await view('webhook');
    const before = await view('telegram');
    const saved = await ok<{ channel: View & { settings: Record<string, unknown>; agentTools: { name: string }[] } }>(
      'channels.settings.set',
      {
        channel: 'telegram',
        settings: {
          dmPolicy: 'allowlist',
          allowFrom: ['4242', '555'],
          groups: { requireMention: false, allowlist: ['-100123'] },
          agentTools: ['react'],
        },
      },
    );
    expect(saved.channel.restarts).toBeGreaterThan(before.restarts);
    expect(saved.channel.settings).toMatchObject({
      dmPolicy: 'allowlist',
      allowFrom: ['4242', '555'],
      groups: { enabled: true, requireMention: false, allowlist: ['-100123'] },
      agentTools: ['react'],
    });
    expect(saved.channel.agentTools.map((tool) => tool.name)).toEqual(['react', 'pin', 'members']);
    const block = JSON.parse(await hearthJson()).channels.telegram;
    expect(block).toMatchObject({
      dmPolicy: 'allowlist',
      allowFrom: ['4242', '555'],
      groups: { requireMention: false, allowlist: ['-100123'] },
      agentTools: ['react'],
      apiBaseUrl: telegram.url,
    });
    expect((await view('webhook')).restarts).toBe(webhookBefore.restarts);

    const written = await hearthJson();
    const bad = await call('channels.settings.set', {
      channel: 'telegram',
      settings: { allowFrom: ['4242', '@olive'] },
    });
    expect(bad.ok).toBe(false);
    expect(bad.error?.message).toContain('"@olive" is not a numeric Telegram user id');
    expect((bad.error?.details as { field?: string } | undefined)?.field).toBe('allowFrom[1]');
    expect(await hearthJson()).toBe(written);

    // Back to the defaults: the host's keys leave hearth.json.
    await ok('channels.settings.set', {
      channel: 'telegram',
      settings: {
        dmPolicy: 'pairing',
        allowFrom: [],
        groups: { requireMention: true, allowlist: [] },
        agentTools: false,
      },
    });
    const cleared = JSON.parse(await hearthJson()).channels.telegram;
    for (const key of ['dmPolicy', 'allowFrom', 'groups', 'agentTools']) expect(cleared).not.toHaveProperty(key);
  });
});
