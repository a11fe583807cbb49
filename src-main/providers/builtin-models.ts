import type { ModelInputKind, ModelLimits } from './provider-config.js';

/** Text and images (every model below: their providers' model pages list image input for each). */
const vision: ModelInputKind[] = ['text', 'image'];

// Limits and input kinds of well-known models, from each provider's model pages. Config
// overrides them (`providers.<id>.models.<model>`); anything else gets the catalog's safe
// defaults, a warning, and text-only input.
export const builtinModelLimits: Record<string, Record<string, ModelLimits>> = {
  openai: {
    'gpt-4o': { name: 'GPT-4o', contextWindow: 128_000, maxOutputTokens: 16_384, input: vision },
    'gpt-4o-mini': { name: 'GPT-4o mini', contextWindow: 128_000, maxOutputTokens: 16_384, input: vision },
    'gpt-4.1': { name: 'GPT-4.1', contextWindow: 1_047_576, maxOutputTokens: 32_768, input: vision },
    'gpt-4.1-mini': { name: 'GPT-4.1 mini', contextWindow: 1_047_576, maxOutputTokens: 32_768, input: vision },
    'gpt-5': { name: 'GPT-5', contextWindow: 400_000, maxOutputTokens: 128_000, input: vision },
    'gpt-5-mini': { name: 'GPT-5 mini', contextWindow: 400_000, maxOutputTokens: 128_000, input: vision },
    o3: { name: 'o3', contextWindow: 200_000, maxOutputTokens: 100_000, input: vision },
    'o4-mini': { name: 'o4-mini', contextWindow: 200_000, maxOutputTokens: 100_000, input: vision },
  },
  anthropic: {
    'claude-opus-4-1': { name: 'Claude Opus 4.1', contextWindow: 200_000, maxOutputTokens: 32_000, input: vision },
    'claude-sonnet-4-5': { name: 'Claude Sonnet 4.5', contextWindow: 200_000, maxOutputTokens: 64_000, input: vision },
    'claude-sonnet-4-0': { name: 'Claude Sonnet 4', contextWindow: 200_000, maxOutputTokens: 64_000, input: vision },
    'claude-haiku-4-5': { name: 'Claude Haiku 4.5', contextWindow: 200_000, maxOutputTokens: 64_000, input: vision },
    'claude-3-5-haiku-latest': {
      name: 'Claude 3.5 Haiku',
      contextWindow: 200_000,
      maxOutputTokens: 8_192,
      input: vision,
    },
  },
  google: {
    'gemini-2.5-pro': { name: 'Gemini 2.5 Pro', contextWindow: 1_048_576, maxOutputTokens: 65_536, input: vision },
    'gemini-2.5-flash': { name: 'Gemini 2.5 Flash', contextWindow: 1_048_576, maxOutputTokens: 65_536, input: vision },
    'gemini-2.0-flash': { name: 'Gemini 2.0 Flash', contextWindow: 1_048_576, maxOutputTokens: 8_192, input: vision },
  },
  bedrock: {
    'anthropic.claude-sonnet-4-20250514-v1:0': {
      name: 'Claude Sonnet 4',
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      input: vision,
    },
    'amazon.nova-pro-v1:0': { name: 'Nova Pro', contextWindow: 300_000, maxOutputTokens: 5_000, input: vision },
  },
};
