import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Webhook mode: Telegram POSTs updates to the gateway's /channels/telegram/webhook with the secret
// token the channel set; the fake Bot API server does exactly that, and retries a non-2xx answer.

const OWNER = { id: 4343, first_name: 'Wes' };
let telegram: FakeTelegramServer;
let product: ProductFixture;

async function telegramStatus(): Promise<Record<string, unknown>> {
  const answer = await product.socket.request('channels.list', {});
  return (answer.payload as { channels: Record<string, unknown>[] }).channels.find((c) => c.id === 'telegram')!;
}

async function waitForStatus(test: (status: Record<string, unknown>) => boolean) {
  for (;;) {
    const seen = product.socket.frames.length;
    const status = await telegramStatus();
    if (test(status)) return status;
    await product.socket.next(
      (f) => f.event === 'channels.changed' && product.socket.frames.indexOf(f) >= seen,
      20_000,
    );
  }
}

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    before: async (home) => {
      await storeTestSecrets(home, { 'channels.telegram.token': telegram.token });
    },
  });
}, 60_000);

afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

describe('Telegram in webhook mode', () => {
  it('registers its webhook with a secret token and answers the updates Telegram posts', async () => {
    expect(await telegramStatus()).toMatchObject({ configured: false, state: 'stopped' });
    const patched = await product.socket.request('config.patch', {
      patch: {
        channels: {
          telegram: {
            mode: 'webhook',
            webhookUrl: `${product.host.url}/channels/telegram/webhook`,
            apiBaseUrl: telegram.url,
            editIntervalMs: 100,
            allowFrom: [String(OWNER.id)],
          },
        },
      },
    });
    expect(patched.ok).toBe(true);
    await waitForStatus((s) => s.state === 'connected');
    expect(telegram.webhook).toMatchObject({ url: `${product.host.url}/channels/telegram/webhook` });
    expect(telegram.webhook?.secretToken?.length).toBeGreaterThanOrEqual(24);

    product.llm.script([{ type: 'text', text: 'Webhooks work.' }]);
    const updateId = telegram.sendUserMessage({ chatId: OWNER.id, from: OWNER, text: 'over the webhook' });
    const reply = await telegram.waitForBotMessage(OWNER.id, (m) => m.text === 'Webhooks work\\.');
    expect(reply.parseMode).toBe('MarkdownV2');
    expect(telegram.webhookDeliveries).toContainEqual({ updateId, status: 200 });
    expect(product.llm.requests.at(-1)?.lastUserText).toContain('over the webhook');
    expect(telegram.calls.some((c) => c.method === 'getUpdates')).toBe(false);
  });

  it('refuses a post without the secret token; it never reaches the model', async () => {
    const before = product.llm.requests.length;
    const forged = JSON.stringify({
      update_id: 1,
      message: {
        message_id: 1,
        from: { id: OWNER.id, is_bot: false, first_name: 'Wes' },
        chat: { id: OWNER.id, type: 'private' },
        date: 1,
        text: 'forged',
      },
    });
    expect(await telegram.postToWebhook(forged, undefined)).toBe(401);
    expect(await telegram.postToWebhook(forged, 'not-the-secret')).toBe(401);
    expect(await telegram.postToWebhook('{not json', telegram.webhook!.secretToken)).toBe(400);
    const wrongMethod = await fetch(`${product.host.url}/channels/telegram/webhook`);
    expect(wrongMethod.status).toBe(405);
    expect(product.llm.requests.length).toBe(before);
  });

  it('names a configured channel no plugin provides, without disturbing the others', async () => {
    await product.socket.request('config.patch', { patch: { channels: { pigeon: {} } } });
    const listed = await product.socket.request('channels.list', {});
    const channels = (listed.payload as { channels: Record<string, unknown>[] }).channels;
    expect(channels.find((c) => c.id === 'pigeon')).toMatchObject({
      configured: true,
      state: 'error',
      error: expect.stringMatching(
        /^channels\.pigeon is configured, but no installed plugin provides a "pigeon" channel \(installed: .*telegram/,
      ),
    });
    expect(channels.find((c) => c.id === 'telegram')).toMatchObject({ state: 'connected' });
    await product.socket.request('config.patch', { patch: { channels: { pigeon: null } } });
  });

  it('goes back to long polling when the mode changes, deleting the webhook', async () => {
    const before = (await telegramStatus()).restarts as number;
    await product.socket.request('config.patch', {
      patch: { channels: { telegram: { mode: 'polling', pollTimeoutSeconds: 1 } } },
    });
    await waitForStatus((s) => (s.restarts as number) > before && s.state === 'connected');
    expect(telegram.webhook).toBeUndefined();
    product.llm.script([{ type: 'text', text: 'Polling again.' }]);
    telegram.sendUserMessage({ chatId: OWNER.id, from: OWNER, text: 'and now by polling' });
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text === 'Polling again\\.');
    const old = await fetch(`${product.host.url}/channels/telegram/webhook`, { method: 'POST', body: '{}' });
    expect(old.status).not.toBe(200);
  });
});
