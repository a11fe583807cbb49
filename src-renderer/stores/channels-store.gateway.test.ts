// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  createWebSocketTransport,
  GatewayClient,
  type WebSocketConstructor,
} from '../../src-main/protocol/client/index.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../../src-main/testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../../src-main/testing/product-fixture.js';
import { createChannelsStore } from './channels-store.js';

// The store's saveSettings against the real gateway (the composed host with the bundled Telegram
// plugin, the fake Bot API on loopback): what the panel relies on, a refusal's details.field and
// the refreshed settings, comes from the real channels.settings.set.

let telegram: FakeTelegramServer;
let product: ProductFixture;
let client: GatewayClient;

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    config: { memory: { recall: { enabled: false } }, channels: { telegram: { apiBaseUrl: telegram.url } } },
  });
  client = new GatewayClient({
    transport: () => createWebSocketTransport(product.host.wsUrl, WebSocket as unknown as WebSocketConstructor),
    reconnect: false,
    connectParams: () => ({
      minProtocol: 4,
      maxProtocol: 4,
      client: {
        id: 'hearth-control-ui',
        version: '0',
        platform: process.platform,
        mode: 'ui',
        instanceId: randomUUID(),
      },
      caps: [],
      role: 'operator',
      scopes: ['operator.admin', 'operator.read', 'operator.write', 'operator.pairing'],
      auth: { token: product.host.token },
    }),
  });
  client.start();
  await client.waitForConnected();
}, 90_000);

afterAll(async () => {
  client?.dispose();
  await product?.close();
  await telegram?.close();
});

describe('channels store against the gateway', () => {
  it('saves allowFrom and toggles, and keeps a refused entry’s field', async () => {
    const store = createChannelsStore(client);
    await store.getState().refresh();
    const telegramView = () => store.getState().channels.find((c) => c.id === 'telegram')!;
    expect(telegramView().settings).toMatchObject({
      dmPolicy: 'pairing',
      allowFrom: [],
      groups: { enabled: true, requireMention: true, allowlist: [] },
      agentTools: false,
    });
    expect(telegramView().agentTools?.map((tool) => tool.name)).toEqual(['react', 'pin', 'members']);

    expect(await store.getState().saveSettings('telegram', { allowFrom: ['4242', '@olive'] })).toBe(false);
    expect(store.getState().settingsOutcome).toMatchObject({ channel: 'telegram', ok: false, field: 'allowFrom[1]' });
    expect(store.getState().settingsOutcome?.error).toContain('"@olive" is not a numeric Telegram user id');
    expect(store.getState().busy).toEqual([]);
    expect(telegramView().settings?.allowFrom).toEqual([]);

    expect(
      await store.getState().saveSettings('telegram', {
        allowFrom: ['4242'],
        groups: { requireMention: false },
        agentTools: ['react'],
      }),
    ).toBe(true);
    expect(store.getState().settingsOutcome).toEqual({ channel: 'telegram', ok: true });
    expect(telegramView().settings).toMatchObject({
      dmPolicy: 'pairing',
      allowFrom: ['4242'],
      groups: { enabled: true, requireMention: false, allowlist: [] },
      agentTools: ['react'],
    });
    store.dispose();
  });
});
