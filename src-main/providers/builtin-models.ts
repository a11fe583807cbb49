import type { ModelLimits } from './provider-config.js';

// Limits of well-known models, from each provider's model pages. Config overrides them;
// anything else gets the catalog's safe defaults and a warning.
export const builtinModelLimits: Record<string, Record<string, ModelLimits>> = {
  openai: {
    'gpt-4o': { name: 'GPT-4o', contextWindow: 128_000, maxOutputTokens: 16_384 },
    'gpt-4o-mini': { name: 'GPT-4o mini', contextWindow: 128_000, maxOutputTokens: 16_384 },
    'gpt-4.1': { name: 'GPT-4.1', contextWindow: 1_047_576, maxOutputTokens: 32_768 },
    'gpt-4.1-mini': { name: 'GPT-4.1 mini', contextWindow: 1_047_576, maxOutputTokens: 32_768 },
    'gpt-5': { name: 'GPT-5', contextWindow: 400_000, maxOutputTokens: 128_000 },
    'gpt-5-mini': { name: 'GPT-5 mini', contextWindow: 400_000, maxOutputTokens: 128_000 },
    o3: { name: 'o3', contextWindow: 200_000, maxOutputTokens: 100_000 },
    'o4-mini': { name: 'o4-mini', contextWindow: 200_000, maxOutputTokens: 100_000 },
  },
  anthropic: {
    'claude-opus-4-1': { name: 'Claude Opus 4.1', contextWindow: 200_000, maxOutputTokens: 32_000 },
    'claude-sonnet-4-5': { name: 'Claude Sonnet 4.5', contextWindow: 200_000, maxOutputTokens: 64_000 },
    'claude-sonnet-4-0': { name: 'Claude Sonnet 4', contextWindow: 200_000, maxOutputTokens: 64_000 },
    'claude-haiku-4-5': { name: 'Claude Haiku 4.5', contextWindow: 200_000, maxOutputTokens: 64_000 },
    'claude-3-5-haiku-latest': { name: 'Claude 3.5 Haiku', contextWindow: 200_000, maxOutputTokens: 8_192 },
  },
  google: {
    'gemini-2.5-pro': { name: 'Gemini 2.5 Pro', contextWindow: 1_048_576, maxOutputTokens: 65_536 },
    'gemini-2.5-flash': { name: 'Gemini 2.5 Flash', contextWindow: 1_048_576, maxOutputTokens: 65_536 },
    'gemini-2.0-flash': { name: 'Gemini 2.0 Flash', contextWindow: 1_048_576, maxOutputTokens: 8_192 },
  },
  bedrock: {
    'anthropic.claude-sonnet-4-20250514-v1:0': {
      name: 'Claude Sonnet 4',
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
    },
    'amazon.nova-pro-v1:0': { name: 'Nova Pro', contextWindow: 300_000, maxOutputTokens: 5_000 },
  },
};
