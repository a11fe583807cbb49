import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';
import { type FakeSlackServer, startFakeSlackServer } from '../testing/fake-slack-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Events API mode: Slack POSTs signed events to the gateway's /channels/slack/webhook; the fake
// server signs them as Slack does (v0 HMAC-SHA256 of v0:timestamp:body) and replies go out
// through its Web API.

const OWNER = 'UOWNER02';
let slack: FakeSlackServer;
let product: ProductFixture;
let requestUrl: string;

async function slackStatus(): Promise<Record<string, unknown>> {
  const answer = await product.socket.request('channels.list', {});
  return (answer.payload as { channels: Record<string, unknown>[] }).channels.find((c) => c.id === 'slack')!;
}

beforeAll(async () => {
  slack = await startFakeSlackServer();
  product = await startProductFixture({
    config: {
      channels: { slack: { mode: 'events', apiBaseUrl: slack.apiUrl, editIntervalMs: 100, allowFrom: [OWNER] } },
    },
    before: async (home) => {
      const { store } = await openSecretStore({
        paths: createHearthPaths(home),
        log: silentLogger,
        env: { HEARTH_SECRET_STORE: 'file' },
      });
      await store.set('channels.slack.token', slack.botToken);
      await store.set('channels.slack.signingSecret', slack.signingSecret);
    },
  });
  requestUrl = `${product.host.url}/channels/slack/webhook`;
  for (;;) {
    const seen = product.socket.frames.length;
    if ((await slackStatus()).state === 'connected') break;
    await product.socket.next((f) => f.event === 'channels.changed' && product.socket.frames.indexOf(f) >= seen);
  }
}, 60_000);

afterAll(async () => {
  await product?.close();
  await slack?.close();
});

describe('Slack in Events API mode', () => {
  it('answers the URL verification challenge', async () => {
    const body = JSON.stringify({ token: 'x', challenge: 'c-3po', type: 'url_verification' });
    expect(await slack.postToRequestUrl(requestUrl, body)).toEqual({ status: 200, text: 'c-3po' });
  });

  it('takes a signed event, answers it, and drops the same event retried', async () => {
    product.llm.script([{ type: 'text', text: 'Over HTTP.' }]);
    const dm = 'DOWNER02';
    const event = slack.eventCallback({ channel: dm, user: OWNER, text: 'over the events api' });
    expect((await slack.postToRequestUrl(requestUrl, event.body)).status).toBe(200);
    await slack.waitForBotMessage(dm, (m) => m.text === 'Over HTTP.');
    const requests = product.llm.requests.length;
    expect(product.llm.requests.at(-1)?.lastUserText).toContain('over the events api');
    expect((await slack.postToRequestUrl(requestUrl, event.body, { retryNum: 1 })).status).toBe(200);
    expect(product.llm.requests.length).toBe(requests);
    expect(slack.botMessages(dm)).toHaveLength(1);
    expect(slack.calls.some((c) => c.method === 'apps.connections.open')).toBe(false);
  });

  it('refuses an unsigned, wrongly signed or stale request with 401; nothing reaches the model', async () => {
    const before = product.llm.requests.length;
    const event = slack.eventCallback({ channel: 'DOWNER02', user: OWNER, text: 'forged' });
    const forged = await slack.postToRequestUrl(requestUrl, event.body, { signature: `v0=${'a'.repeat(64)}` });
    expect(forged).toEqual({ status: 401, text: 'unauthorized: signature does not match' });
    const stale = await slack.postToRequestUrl(requestUrl, event.body, { ageSeconds: 6 * 60 });
    expect(stale.status).toBe(401);
    expect(stale.text).toContain('5-minute window');
    const unsigned = await fetch(requestUrl, { method: 'POST', body: event.body });
    expect(unsigned.status).toBe(401);
    expect(await slack.postToRequestUrl(requestUrl, '{not json')).toMatchObject({ status: 400 });
    expect(product.llm.requests.length).toBe(before);
  });
});
