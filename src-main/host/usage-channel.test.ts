import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// A spend cap as a Telegram user meets it: the call that crosses it answers, the next message
// gets a clear refusal in the chat (no request reaches the model), and the UI hears usage.limit.

const OWNER = { id: 4242, first_name: 'Olive', username: 'olive' };
let telegram: FakeTelegramServer;
let product: ProductFixture;

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    config: {
      usage: { timeZone: 'UTC', limits: { global: { month: { tokens: 1 } } } },
      memory: { recall: { enabled: false } },
      channels: {
        telegram: { apiBaseUrl: telegram.url, pollTimeoutSeconds: 1, allowFrom: [String(OWNER.id)] },
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

describe('a spend cap in a channel', () => {
  it('answers the message that crosses the cap, then tells the person why the next one is refused', async () => {
    product.llm.script([{ type: 'text', text: 'First answer.' }]);
    telegram.sendUserMessage({ chatId: OWNER.id, from: OWNER, text: 'hello' });
    await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('First answer'));
    const announced = await product.socket.next((frame) => frame.event === 'usage.limit', 20_000);
    expect(announced.payload).toMatchObject({ scope: 'global', period: 'month', state: 'exhausted' });

    const before = product.llm.requests.length;
    telegram.sendUserMessage({ chatId: OWNER.id, from: OWNER, text: 'and again?' });
    const refusal = await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('could not answer'));
    expect(refusal.text.replaceAll('\\', '')).toMatch(
      /the spend limit is reached \(the monthly overall limit \(1 token\) is used up/,
    );
    expect(product.llm.requests.length).toBe(before);
  });
});
