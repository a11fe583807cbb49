import { describe, expect, it, onTestFinished } from 'vitest';
import { silentLogger, systemClock } from '../../base/index.js';
import {
  createModelFactory,
  createProviderRegistry,
  type ProvidersConfig,
  registerBuiltinProviders,
  warmUpKinds,
} from '../../providers/index.js';
import { warmUpModels } from './warm-up.js';

describe('warmUpModels', () => {
  it('runs one canned call per provider kind without network, and skips what it cannot warm', async () => {
    const registry = createProviderRegistry();
    const registrations = registerBuiltinProviders(registry);
    onTestFinished(() => registrations.dispose());
    const providers: ProvidersConfig = {
      deepseek: { kind: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1' },
      br: { kind: 'bedrock', region: 'us-east-1' },
    };
    const models = createModelFactory({ registry, providers: () => providers });
    const warmed = await warmUpModels({
      models,
      modelSelection: () => ({
        primary: 'openai/gpt-4o',
        fallbacks: [
          'openai/gpt-4o-mini',
          'anthropic/claude-sonnet-4-5',
          'google/gemini-2.5-flash',
          'ollama/llama3.2',
          'openai-responses/gpt-5',
          'deepseek/deepseek-chat',
          'br/m',
          'nope/x',
        ],
      }),
      clock: systemClock,
      log: silentLogger,
      newId: () => 'id',
    });
    expect(warmed.sort()).toEqual(['anthropic', 'google', 'ollama', 'openai', 'openai-compatible', 'openai-responses']);
    expect(warmUpKinds).not.toContain('bedrock');
  });
});
