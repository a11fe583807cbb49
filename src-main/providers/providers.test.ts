import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Disposable } from '../base/disposable.js';
import { createMemoryLogger } from '../base/logger.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { registerBuiltinProviders } from './builtin-providers.js';
import { createModelCatalog, defaultModelLimits } from './model-catalog.js';
import { createModelFactory } from './model-factory.js';
import { parseModelRef } from './model-ref.js';
import { detectOllama } from './ollama-detect.js';
import { type ProvidersConfig, parseRuntimeConfig } from './provider-config.js';
import { createProviderRegistry } from './provider-registry.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer({ ollamaModels: ['llama3.2:latest', 'qwen3:8b'] });
});
afterAll(() => server.close());

// Each test's registrations, released after it (the leak check in src-main/testing/leak-check-setup.ts).
const registrations: Disposable[] = [];
afterEach(() => {
  for (const registration of registrations.splice(0)) registration.dispose();
});

function setup(providers: ProvidersConfig = {}) {
  const registry = createProviderRegistry();
  registrations.push(registerBuiltinProviders(registry));
  const log = createMemoryLogger();
  return {
    registry,
    log,
    factory: createModelFactory({ registry, providers: () => providers }),
    catalog: createModelCatalog({ registry, providers: () => providers, log }),
  };
}

describe('model references', () => {
  it('splits on the first slash so OpenRouter-style ids survive', () => {
    expect(parseModelRef('openrouter/anthropic/claude-3.5')).toEqual({
      provider: 'openrouter',
      model: 'anthropic/claude-3.5',
    });
  });
  it('names what is wrong with a bad reference', () => {
    expect(() => parseModelRef('gpt-4o')).toThrow(/invalid model reference "gpt-4o": expected "provider\/model"/);
    expect(() => parseModelRef('openai/')).toThrow(/invalid model reference/);
    expect(() => parseModelRef('/x')).toThrow(/invalid model reference/);
  });
});

describe('runtime config', () => {
  it('fills defaults', () => {
    const config = parseRuntimeConfig({ model: { primary: 'openai/gpt-4o' } });
    expect(config).toMatchObject({ providers: {}, auth: { billingDisableMs: 18_000_000 }, model: { fallbacks: [] } });
  });
  it('names each bad path', () => {
    expect(() => parseRuntimeConfig({ model: {} })).toThrow(/model\.primary/);
    expect(() =>
      parseRuntimeConfig({ model: { primary: 'a/b' }, providers: { x: { kind: 'openai', extra: 1 } } }),
    ).toThrow(/providers\.x/);
    expect(() =>
      parseRuntimeConfig({
        model: { primary: 'a/b' },
        providers: { x: { kind: 'openai', models: { m: { contextWindow: -1, maxOutputTokens: 1 } } } },
      }),
    ).toThrow(/providers\.x\.models\.m\.contextWindow/);
  });
});

describe('model catalog', () => {
  it('knows built-in models, lets config override, and warns once for unknown ones', () => {
    const { catalog, log } = setup({
      openai: { kind: 'openai', models: { 'gpt-4o': { contextWindow: 64_000, maxOutputTokens: 1_000 } } },
    });
    expect(catalog.limits({ provider: 'anthropic', model: 'claude-sonnet-4-5' })).toMatchObject({
      contextWindow: 200_000,
      known: true,
    });
    expect(catalog.limits({ provider: 'openai', model: 'gpt-4o' })).toMatchObject({
      contextWindow: 64_000,
      known: true,
    });
    expect(catalog.limits({ provider: 'openai', model: 'mystery' })).toMatchObject({
      ...defaultModelLimits,
      known: false,
    });
    catalog.limits({ provider: 'openai', model: 'mystery' });
    expect(log.entries.filter((e) => e.message.startsWith('unknown model'))).toHaveLength(1);
  });
});

describe('model factory and registry', () => {
  it('explains unknown providers and kinds no adapter implements', () => {
    const { factory } = setup({ weird: { kind: 'openai' } });
    expect(() => factory.provider('nope')).toThrow(/unknown provider "nope": add it under "providers"/);
    const broken = createModelFactory({
      registry: createProviderRegistry(),
      providers: () => ({ x: { kind: 'openai' } }),
    });
    expect(() => broken.provider('x')).toThrow(
      /provider "x" has kind "openai", which no installed provider implements/,
    );
  });

  it('names missing adapter settings', () => {
    const { factory } = setup({
      az: { kind: 'azure' },
      br: { kind: 'bedrock' },
      compat: { kind: 'openai-compatible' },
    });
    const key = { kind: 'api_key' as const, value: 'k' };
    expect(() => factory.create({ provider: 'az', model: 'd' }, key)).toThrow(
      /"az" \(azure\) needs "resourceName" or "baseURL"/,
    );
    expect(() => factory.create({ provider: 'br', model: 'm' }, key)).toThrow(/"br" \(bedrock\) needs "region"/);
    expect(() => factory.create({ provider: 'compat', model: 'm' }, undefined)).toThrow(/needs "baseURL"/);
    expect(() => factory.create({ provider: 'openai', model: 'gpt-4o' }, undefined)).toThrow(/needs a credential/);
  });

  it('builds a Bedrock model from an API key or SigV4 JSON', () => {
    const { factory } = setup({ br: { kind: 'bedrock', region: 'us-east-1' } });
    expect(
      factory.create({ provider: 'br', model: 'amazon.nova-pro-v1:0' }, { kind: 'api_key', value: 'k' }).modelId,
    ).toBe('amazon.nova-pro-v1:0');
    const sigV4 = JSON.stringify({ accessKeyId: 'AKIA', secretAccessKey: 's' });
    expect(factory.create({ provider: 'br', model: 'm' }, { kind: 'api_key', value: sigV4 }).provider).toContain(
      'bedrock',
    );
  });

  it('refuses a second provider with the same kind', () => {
    const { registry } = setup();
    expect(() =>
      registry.register({
        kind: 'openai',
        displayName: 'x',
        requiresCredential: false,
        createModel: () => ({}) as never,
      }),
    ).toThrow(/"openai" is already registered/);
  });
});

describe('Ollama detection', () => {
  it('lists local models from /api/tags', async () => {
    const found = await detectOllama({ baseURL: server.baseUrlFor('ollama-host'), fetch });
    expect(found).toEqual({
      available: true,
      baseURL: server.baseUrlFor('ollama'),
      models: ['llama3.2:latest', 'qwen3:8b'],
    });
  });
  it('reports absence without throwing', async () => {
    const missing = await detectOllama({ baseURL: 'http://127.0.0.1:1', fetch, timeoutMs: 200 });
    expect(missing.available).toBe(false);
    // Something else listening on the port: a 404 is not an Ollama.
    const other = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const wrong = await detectOllama({ baseURL: `http://127.0.0.1:${(other.address() as AddressInfo).port}`, fetch });
    other.close();
    expect(wrong).toMatchObject({ available: false, reason: expect.stringMatching(/404/) });
  });
});

describe('model selection from the agents section', () => {
  it('prefers the agent’s own model, accepts the string shorthand, and names bad paths', async () => {
    const { resolveModelSelection } = await import('./model-selection.js');
    const agents = {
      defaults: { model: { primary: 'openai/gpt-4o', fallbacks: ['anthropic/claude-sonnet-4-5'] } },
      list: [
        { id: 'work', model: 'google/gemini-2.5-pro' },
        { id: 'bad', model: { primary: 1 } },
      ],
    };
    expect(resolveModelSelection(agents, 'main')).toEqual(agents.defaults.model);
    expect(resolveModelSelection(agents, 'work')).toEqual({ primary: 'google/gemini-2.5-pro', fallbacks: [] });
    expect(resolveModelSelection({}, 'main')).toBeUndefined();
    expect(() => resolveModelSelection(agents, 'bad')).toThrow(/agents\.list\[1\]\.model/);
  });
});
