import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Onboarding's server side in the composed host: providers.test asks a real (loopback) endpoint,
// providers.save goes through the config service and the secret store, the saved model answers a
// turn, and auth.profiles.probe records what the provider said about each key.
const goodKey = 'sk-setup-good-9c1d';
let product: ProductFixture;
let endpoint: FakeLlmServer;

beforeAll(async () => {
  endpoint = await startFakeLlmServer({ acceptKeys: [goodKey], listedModels: ['alpha', 'beta'] });
  product = await startProductFixture();
});
afterAll(async () => {
  await product?.close();
  await endpoint?.close();
});

const hearthJsonText = () => readFile(join(product.home, 'hearth.json'), 'utf8');

describe('provider setup through the gateway', () => {
  it('tests an endpoint: its models with the right key, its refusal with a wrong one', async () => {
    const baseURL = endpoint.baseUrlFor('openai-compatible');
    const good = await product.socket.request('providers.test', {
      kind: 'openai-compatible',
      baseURL,
      apiKey: goodKey,
    });
    expect(good.payload).toEqual({ ok: true, url: `${baseURL}/models`, models: ['alpha', 'beta'] });
    const wrong = await product.socket.request('providers.test', {
      kind: 'openai-compatible',
      baseURL,
      apiKey: 'nope',
    });
    expect(wrong.payload).toMatchObject({ ok: false, problem: 'auth', status: 401 });
  });

  it('refuses a save that cannot work, naming what is wrong, and writes nothing', async () => {
    const before = await hearthJsonText();
    const noURL = await product.socket.request('providers.save', {
      id: 'endpoint',
      kind: 'openai-compatible',
      primary: 'endpoint/alpha',
    });
    expect(noURL.error?.message).toContain('needs its base URL');
    const badRef = await product.socket.request('providers.save', {
      id: 'endpoint',
      kind: 'openai-compatible',
      baseURL: endpoint.baseUrlFor('openai-compatible'),
      primary: 'alpha',
    });
    expect(badRef.error?.message).toContain('primary');
    expect(await hearthJsonText()).toBe(before);
  });

  it('saves provider and chain into hearth.json and the key into the secret store; the model answers', async () => {
    const saved = await product.socket.request('providers.save', {
      id: 'endpoint',
      kind: 'openai-compatible',
      baseURL: `${endpoint.baseUrlFor('openai-compatible')}/`,
      apiKey: goodKey,
      primary: 'endpoint/beta',
      fallbacks: ['openai/gpt-4o'],
    });
    expect(saved.payload).toEqual({
      providerId: 'endpoint',
      profileId: 'endpoint:default',
      primary: 'endpoint/beta',
      fallbacks: ['openai/gpt-4o'],
    });
    const text = await hearthJsonText();
    expect(text).not.toContain(goodKey);
    const config = JSON.parse(text);
    expect(config.providers.endpoint).toEqual({
      kind: 'openai-compatible',
      baseURL: endpoint.baseUrlFor('openai-compatible'),
    });
    expect(config.providers.openai.kind).toBe('openai');
    expect(config.agents.defaults.model).toEqual({ primary: 'endpoint/beta', fallbacks: ['openai/gpt-4o'] });

    const models = (await product.socket.request('models.list', {})).payload as {
      primary: string;
      models: { id: string; available: boolean }[];
    };
    expect(models.primary).toBe('endpoint/beta');
    expect(models.models.find((m) => m.id === 'endpoint/beta')?.available).toBe(true);

    endpoint.script({ type: 'text', text: 'beta here' });
    const end = await product.turn('setup-1', 'hello');
    expect(end).toMatchObject({ state: 'final' });
    expect(endpoint.requests.at(-1)).toMatchObject({ model: 'beta', keyTail: goodKey.slice(-4) });
  });

  it('probes every key and keeps the answer on its row', async () => {
    const probed = (await product.socket.request('auth.profiles.probe', { force: true })).payload as {
      profiles: { id: string; verified: boolean; lastProbe?: { ok: boolean; models?: number } }[];
    };
    const byId = Object.fromEntries(probed.profiles.map((row) => [row.id, row]));
    expect(byId['endpoint:default']).toMatchObject({ verified: true, lastProbe: { ok: true, models: 2 } });
    // The fixture's openai key is answered by the fake's open /openai/v1/models.
    expect(byId['openai-main']).toMatchObject({ verified: true, lastProbe: { ok: true } });
    const missing = await product.socket.request('auth.profiles.probe', { id: 'nobody' });
    expect(missing.error?.message).toBe('no auth profile "nobody"');
  });
});
