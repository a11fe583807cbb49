import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';
import { type FakeWebhookReceiver, startFakeWebhookReceiver } from '../testing/fake-webhook-receiver.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// The generic webhook channel through the real host: a script POSTs a signed message to the
// gateway's /channels/webhook/webhook, the agent answers, the reply is POSTed, signed, to the
// script's own server (a loopback receiver that checks the signature itself).

const SECRET = 'shared-secret-for-tests-0123456789';
let receiver: FakeWebhookReceiver;
let product: ProductFixture;

const sign = (timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;

async function post(body: string, options: { ageSeconds?: number; signature?: string; unsigned?: boolean } = {}) {
  const timestamp = String(Math.floor(Date.now() / 1000) - (options.ageSeconds ?? 0));
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!options.unsigned) {
    headers['x-hearth-timestamp'] = timestamp;
    headers['x-hearth-signature'] = options.signature ?? sign(timestamp, body);
  }
  const response = await fetch(`${product.host.url}/channels/webhook/webhook`, { method: 'POST', headers, body });
  return { status: response.status, text: await response.text() };
}

async function webhookStatus(): Promise<Record<string, unknown>> {
  const answer = await product.socket.request('channels.list', {});
  return (answer.payload as { channels: Record<string, unknown>[] }).channels.find((c) => c.id === 'webhook')!;
}

beforeAll(async () => {
  receiver = await startFakeWebhookReceiver(SECRET);
  product = await startProductFixture({
    config: { channels: { webhook: { outboundUrl: receiver.url } } },
    before: async (home) => {
      const { store } = await openSecretStore({
        paths: createHearthPaths(home),
        log: silentLogger,
        env: { HEARTH_SECRET_STORE: 'file' },
      });
      await store.set('channels.webhook.token', SECRET);
    },
  });
  for (;;) {
    const seen = product.socket.frames.length;
    if ((await webhookStatus()).state === 'connected') break;
    await product.socket.next((f) => f.event === 'channels.changed' && product.socket.frames.indexOf(f) >= seen);
  }
}, 60_000);

afterAll(async () => {
  await product?.close();
  await receiver?.close();
});

describe('the webhook channel, end to end through the channel host', () => {
  it('takes a signed message and POSTs the reply out, signed, naming what it answers', async () => {
    expect(await webhookStatus()).toMatchObject({ state: 'connected', account: 'POST /channels/webhook/webhook' });
    product.llm.script([{ type: 'text', text: 'The lights are off.' }]);
    const body = JSON.stringify({ id: 'ha-1', sender: 'home-assistant', conversation: 'kitchen', text: 'lights?' });
    const answer = await post(body);
    expect(answer).toEqual({ status: 202, text: JSON.stringify({ accepted: true, id: 'ha-1' }) });
    const reply = await receiver.waitForReply((r) => r.body.inReplyTo === 'ha-1');
    expect(reply.signatureValid).toBe(true);
    expect(reply.body).toMatchObject({ type: 'message', conversation: 'kitchen', text: 'The lights are off.' });
    expect(product.llm.requests.at(-1)?.lastUserText).toContain('lights?');
    const sessions = await product.socket.request('sessions.list', {});
    expect(JSON.stringify(sessions.payload)).toContain('agent:main:webhook:direct:kitchen');

    // The same id again is the same message: taken, not answered twice.
    const requests = product.llm.requests.length;
    expect((await post(body)).status).toBe(202);
    product.llm.script([{ type: 'text', text: 'Second one.' }]);
    await post(JSON.stringify({ id: 'ha-2', sender: 'home-assistant', conversation: 'kitchen', text: 'and now?' }));
    await receiver.waitForReply((r) => r.body.inReplyTo === 'ha-2');
    expect(product.llm.requests.length).toBe(requests + 1);
    expect(receiver.replies.filter((r) => r.body.inReplyTo === 'ha-1')).toHaveLength(1);
  });

  it('refuses a bad signature, a stale timestamp or no signature with 401, and nothing reaches the agent', async () => {
    const before = product.llm.requests.length;
    const replies = receiver.replies.length;
    const body = JSON.stringify({ sender: 'mallory', text: 'open the door' });
    const forged = await post(body, { signature: `sha256=${'0'.repeat(64)}` });
    expect(forged.status).toBe(401);
    expect(forged.text).toContain('signature does not match');
    const stale = await post(body, { ageSeconds: 600 });
    expect(stale.status).toBe(401);
    expect(stale.text).toContain('outside the 300-second window');
    const unsigned = await post(body, { unsigned: true });
    expect(unsigned.status).toBe(401);
    expect(unsigned.text).toContain('no X-Hearth-Timestamp');
    // Signed with another body: the signature covers every byte.
    const timestamp = String(Math.floor(Date.now() / 1000));
    const swapped = await post(body, { signature: sign(timestamp, JSON.stringify({ sender: 'm', text: 'hi' })) });
    expect(swapped.status).toBe(401);
    expect(product.llm.requests.length).toBe(before);
    expect(receiver.replies.length).toBe(replies);
  });

  it('answers a malformed body with 400 and a clear error', async () => {
    const before = product.llm.requests.length;
    const notJson = await post('{not json');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.text).error).toMatch(/^the body must be JSON/);
    const noText = await post(JSON.stringify({ sender: 'script' }));
    expect(noText).toMatchObject({ status: 400, text: JSON.stringify({ error: '"text" must be a non-empty string' }) });
    const badSender = await post(JSON.stringify({ sender: 'a b/c', text: 'hi' }));
    expect(badSender.status).toBe(400);
    expect(JSON.parse(badSender.text).error).toContain('"sender" must be an id');
    const wrongMethod = await fetch(`${product.host.url}/channels/webhook/webhook`);
    expect(wrongMethod.status).toBe(405);
    expect(product.llm.requests.length).toBe(before);
  });

  it('retries a reply the receiver refused with a 5xx', async () => {
    product.llm.script([{ type: 'text', text: 'Got there in the end.' }]);
    receiver.failNext(503);
    await post(JSON.stringify({ id: 'retry-1', sender: 'cron', text: 'report' }));
    const reply = await receiver.waitForReply((r) => r.body.inReplyTo === 'retry-1');
    expect(reply).toMatchObject({
      signatureValid: true,
      body: { text: 'Got there in the end.', conversation: 'cron' },
    });
  });
});
