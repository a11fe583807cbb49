import { generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBaseUrlKind, type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { builtinProviderSdks, builtinProviders } from './builtin-providers.js';
import { lazyLanguageModel, ProviderSdkLoadError, providerSdk } from './lazy-language-model.js';
import type { ProviderModelSettings } from './provider-registry.js';
import { streamCompletion } from './stream-completion.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());

const key = { kind: 'api_key' as const, value: 'sk-lazy-test' };

function serviceOf(kind: string) {
  const service = builtinProviders.find((s) => s.kind === kind);
  if (!service) throw new Error(`no built-in provider "${kind}"`);
  return service;
}

const fakeBases: Record<string, FakeBaseUrlKind> = {
  openai: 'openai',
  'openai-responses': 'openai',
  anthropic: 'anthropic',
  google: 'google',
  ollama: 'ollama',
  azure: 'azure',
  'openai-compatible': 'openai-compatible',
};

/** A fresh SDK loader over the real package, counting its imports (the built-in ones are per process). */
function countingAnthropicSdk(failFirst = false) {
  const imports = { count: 0 };
  // A specifier no package answers to: a real failed import, as a broken install gives.
  const missing = './no-such-provider-sdk.js';
  const sdk = providerSdk('anthropic', '@ai-sdk/anthropic', () => {
    imports.count++;
    return failFirst && imports.count === 1 ? import(missing) : import('@ai-sdk/anthropic');
  });
  const model = () =>
    lazyLanguageModel({
      sdk,
      provider: 'anthropic.messages',
      modelId: 'claude-sonnet-4-5',
      create: ({ createAnthropic }) =>
        createAnthropic({ apiKey: key.value, baseURL: server.baseUrlFor('anthropic') })('claude-sonnet-4-5'),
    });
  return { sdk, model, imports };
}

describe('lazy provider models', () => {
  it('report the provider, model id and supported URLs of the model they stand for, for every kind', async () => {
    for (const service of builtinProviders) {
      const settings: ProviderModelSettings = {
        providerId: `my-${service.kind}`,
        credential: key,
        baseURL: 'http://127.0.0.1:1/v1',
        region: 'us-east-1',
      };
      const model = service.createModel('some-model', settings);
      expect(builtinProviderSdks[service.kind], service.kind).toBeDefined();
      // Awaiting supportedUrls loads the SDK and builds the real model, which must report the same.
      const urls = await model.supportedUrls;
      const sdk = builtinProviderSdks[service.kind]?.loaded;
      expect(sdk, service.kind).toBeDefined();
      expect(model.specificationVersion).toBe('v3');
      expect(model.modelId).toBe('some-model');
      expect(typeof urls, service.kind).toBe('object');
    }
  });

  it('stream through the real SDK of each kind against the fake provider', async () => {
    for (const [kind, base] of Object.entries(fakeBases)) {
      server.script({ type: 'text', text: `hello via ${kind}`, chunkSize: 4 }, { model: `m-${kind}` });
      const model = serviceOf(kind).createModel(`m-${kind}`, {
        providerId: kind,
        credential: key,
        baseURL: server.baseUrlFor(base),
      });
      const text = await streamCompletion({ model, prompt: 'hi', maxOutputTokens: 16 });
      expect(text, kind).toBe(`hello via ${kind}`);
      expect(server.requests.at(-1)?.model).toBe(`m-${kind}`);
    }
  });

  it('hand a non-streamed call to the real SDK too', async () => {
    const model = serviceOf('openai').createModel('gpt-4o-generate', {
      providerId: 'openai',
      credential: key,
      baseURL: server.baseUrlFor('openai'),
    });
    // The fake speaks only streams: the real SDK sends the request, then fails to parse SSE as JSON.
    const failure = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((error: unknown) => error);
    expect(server.requests.at(-1)).toMatchObject({
      model: 'gpt-4o-generate',
      path: expect.stringMatching(/chat\/completions/),
    });
    expect(String(failure)).toMatch(/Invalid JSON response/);
  });

  it('import nothing until the first call, then once for concurrent calls', async () => {
    const { sdk, model, imports } = countingAnthropicSdk();
    const first = model();
    const second = model();
    expect(imports.count).toBe(0);
    expect(sdk.loaded).toBeUndefined();
    server.script(
      [
        { type: 'text', text: 'both' },
        { type: 'text', text: 'both' },
      ],
      { model: 'claude-sonnet-4-5' },
    );
    const texts = await Promise.all(
      [first, second].map((m) => streamCompletion({ model: m, prompt: 'hi', maxOutputTokens: 16 })),
    );
    expect(texts).toEqual(['both', 'both']);
    expect(imports.count).toBe(1);
    expect(sdk.loaded).toBeDefined();
  });

  it('report a failed SDK import with the kind and package, and import again on the next call', async () => {
    const { model, imports } = countingAnthropicSdk(true);
    const broken = model();
    const failure = await streamCompletion({ model: broken, prompt: 'hi', maxOutputTokens: 16 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProviderSdkLoadError);
    expect((failure as Error).message).toMatch(
      /the "anthropic" provider's SDK \(@ai-sdk\/anthropic\) could not be loaded/,
    );
    expect(failure).toMatchObject({ code: 'unavailable', retryable: true, details: { kind: 'anthropic' } });

    server.script({ type: 'text', text: 'second try' }, { model: 'claude-sonnet-4-5' });
    // The same model instance retries: a rejected import is not kept.
    expect(await streamCompletion({ model: broken, prompt: 'hi', maxOutputTokens: 16 })).toBe('second try');
    expect(imports.count).toBe(2);
  });

  it('refuse to stand in for a model that reports another provider', async () => {
    const sdk = providerSdk('openai', '@ai-sdk/openai', () => import('@ai-sdk/openai'));
    const model = lazyLanguageModel({
      sdk,
      provider: 'openai.responses',
      modelId: 'gpt-4o',
      create: ({ createOpenAI }) => createOpenAI({ apiKey: key.value }).chat('gpt-4o'),
    });
    await expect(Promise.resolve(model.supportedUrls)).rejects.toThrow(
      /built a v3 model "openai\.chat\/gpt-4o", not the v3 "openai\.responses\/gpt-4o" expected/,
    );
  });

  it('still refuse missing credentials and settings when the model is created, before any import', () => {
    expect(() => serviceOf('anthropic').createModel('m', { providerId: 'anthropic' })).toThrow(
      /provider "anthropic" needs a credential/,
    );
    expect(() => serviceOf('bedrock').createModel('m', { providerId: 'br', credential: key })).toThrow(
      /"br" \(bedrock\) needs "region"/,
    );
  });
});
