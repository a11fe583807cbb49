import { afterAll, describe, expect, it } from 'vitest';
import { DisposableStore } from '../base/disposable.js';
import { silentLogger } from '../base/logger.js';
import { registerBuiltinProviders } from './builtin-providers.js';
import { createModelCatalog } from './model-catalog.js';
import { parseModelRef } from './model-ref.js';
import type { ProvidersConfig } from './provider-config.js';
import { createProviderRegistry } from './provider-registry.js';

// Which models are sent the images a tool returns: the built-in table says which models take
// images, config may say so for others, and the API kind must carry images in a tool result.

const registrations = new DisposableStore();
afterAll(() => registrations.dispose());

function catalogWith(providers: ProvidersConfig) {
  const registry = createProviderRegistry();
  registrations.add(registerBuiltinProviders(registry));
  return createModelCatalog({ registry, providers: () => providers, log: silentLogger });
}
const refusal = (catalog: ReturnType<typeof catalogWith>, ref: string) => catalog.imageRefusal(parseModelRef(ref));

describe('image input by model', () => {
  it('sends images to the known vision models of the APIs that carry them in tool results', () => {
    const catalog = catalogWith({ claude: { kind: 'anthropic' }, resp: { kind: 'openai-responses' } });
    for (const ref of [
      'anthropic/claude-sonnet-4-5',
      'claude/claude-haiku-4-5',
      'resp/gpt-4o',
      'google/gemini-2.5-flash',
      'bedrock/amazon.nova-pro-v1:0',
    ])
      expect(refusal(catalog, ref)).toBeUndefined();
  });

  it('describes instead for an unknown model, a model declared text-only, and Chat Completions', () => {
    const catalog = catalogWith({
      deepseek: { kind: 'openai-compatible', baseURL: 'https://api.deepseek.com/v1' },
      anthropic: {
        kind: 'anthropic',
        models: { 'claude-sonnet-4-5': { contextWindow: 200_000, maxOutputTokens: 8_000, input: ['text'] } },
      },
    });
    expect(refusal(catalog, 'deepseek/deepseek-chat')).toBe(
      'the model deepseek/deepseek-chat takes text only (to change that, set providers.deepseek.models.deepseek-chat.input to ["text", "image"])',
    );
    expect(refusal(catalog, 'anthropic/claude-sonnet-4-5')).toBe(
      'the model anthropic/claude-sonnet-4-5 takes text only',
    );
    expect(refusal(catalog, 'openai/gpt-4o')).toBe(
      'the openai API cannot carry images in a tool result, so openai/gpt-4o cannot see them here (the anthropic, openai-responses, google and bedrock kinds can)',
    );
  });

  it('keeps a known model’s image input when config only corrects its limits, and lets config add it', () => {
    const catalog = catalogWith({
      anthropic: {
        kind: 'anthropic',
        models: { 'claude-haiku-4-5': { contextWindow: 100_000, maxOutputTokens: 4_000 } },
      },
      local: {
        kind: 'anthropic',
        baseURL: 'http://127.0.0.1:9/v1',
        models: { 'my-vision': { contextWindow: 32_000, maxOutputTokens: 4_000, input: ['text', 'image'] } },
      },
    });
    expect(refusal(catalog, 'anthropic/claude-haiku-4-5')).toBeUndefined();
    expect(refusal(catalog, 'local/my-vision')).toBeUndefined();
  });
});
