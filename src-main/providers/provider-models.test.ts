import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { detectLocalServers, localServerHostsFrom } from './local-servers.js';
import { listProviderModels } from './provider-models.js';

// The Test connection request against loopback servers speaking the published APIs: a list that
// works, a key the provider refuses (401 with its own error body), and a port nothing listens on.
let open: FakeLlmServer;
let keyed: FakeLlmServer;
let refusedURL: string;
beforeAll(async () => {
  open = await startFakeLlmServer({ listedModels: ['qwen2.5-7b-instruct', 'llama-3.2-3b'] });
  keyed = await startFakeLlmServer({ acceptKeys: ['sk-right'], listedModels: ['deepseek-chat', 'deepseek-reasoner'] });
  // A port that was just free: connecting to it is refused, as with a local server not running.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  refusedURL = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  await open?.close();
  await keyed?.close();
});

describe('listProviderModels', () => {
  it('lists an OpenAI-compatible server’s models from GET {baseURL}/models', async () => {
    const listing = await listProviderModels({
      kind: 'openai-compatible',
      baseURL: open.baseUrlFor('openai-compatible'),
      fetch,
    });
    expect(listing).toEqual({
      ok: true,
      url: `${open.baseUrlFor('openai-compatible')}/models`,
      models: ['llama-3.2-3b', 'qwen2.5-7b-instruct'],
    });
  });

  it('sends the key as a bearer token and lists with the right one', async () => {
    const listing = await listProviderModels({
      kind: 'openai-compatible',
      baseURL: `${keyed.baseUrlFor('openai-compatible')}/`,
      apiKey: 'sk-right',
      fetch,
    });
    expect(listing.ok && listing.models).toEqual(['deepseek-chat', 'deepseek-reasoner']);
  });

  it('reports a refused key as auth with the provider’s own message and status', async () => {
    const listing = await listProviderModels({
      kind: 'openai',
      baseURL: keyed.baseUrlFor('openai'),
      apiKey: 'sk-wrong',
      fetch,
    });
    expect(listing).toMatchObject({ ok: false, problem: 'auth', status: 401 });
    expect(!listing.ok && listing.message).toContain('refused the key (HTTP 401): Incorrect API key provided.');
  });

  it('lists Anthropic models with x-api-key and reads its paged list', async () => {
    const listing = await listProviderModels({
      kind: 'anthropic',
      baseURL: keyed.baseUrlFor('anthropic'),
      apiKey: 'sk-right',
      fetch,
    });
    expect(listing.ok && listing.models).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    const refused = await listProviderModels({ kind: 'anthropic', baseURL: keyed.baseUrlFor('anthropic'), fetch });
    expect(refused).toMatchObject({ ok: false, problem: 'auth', status: 401 });
    expect(!refused.ok && refused.message).toContain('invalid x-api-key');
  });

  it('lists Ollama from /api/tags under the configured /api root', async () => {
    const listing = await listProviderModels({ kind: 'ollama', baseURL: open.baseUrlFor('ollama'), fetch });
    expect(listing.ok && listing.models).toEqual(['llama3.2:latest']);
  });

  it('says a refused connection is down, naming the host', async () => {
    const listing = await listProviderModels({ kind: 'openai-compatible', baseURL: refusedURL, fetch });
    expect(listing).toMatchObject({ ok: false, problem: 'down' });
    expect(!listing.ok && listing.message).toBe(
      `nothing is listening at ${new URL(refusedURL).host} (connection refused)`,
    );
  });

  it('refuses bad input before any request, naming what is wrong', async () => {
    expect(await listProviderModels({ kind: 'openai-compatible', fetch })).toMatchObject({
      ok: false,
      problem: 'bad_input',
      message: expect.stringContaining('needs a base URL'),
    });
    expect(await listProviderModels({ kind: 'openai-compatible', baseURL: 'ftp://x', fetch })).toMatchObject({
      problem: 'bad_input',
      message: 'base URL "ftp://x" is not an http(s) URL',
    });
    expect(await listProviderModels({ kind: 'bedrock', fetch })).toMatchObject({
      problem: 'bad_input',
      field: 'region',
    });
    expect(await listProviderModels({ kind: 'some-plugin', fetch })).toMatchObject({ problem: 'unsupported' });
  });
});

describe('detectLocalServers', () => {
  it('finds the servers that answer and says why the others were not found', async () => {
    const hosts = localServerHostsFrom({
      OLLAMA_HOST: open.baseUrlFor('ollama-host'),
      HEARTH_LMSTUDIO_URL: refusedURL,
    });
    const found = await detectLocalServers({ hosts, fetch });
    expect(found.map(({ id, available, models }) => ({ id, available, models }))).toEqual([
      { id: 'ollama', available: true, models: ['llama3.2:latest'] },
      { id: 'lmstudio', available: false, models: [] },
    ]);
    expect(found[1]?.reason).toContain('connection refused');
  });
});
