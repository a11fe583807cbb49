import type { ModelPrice } from './usage-config.js';

/**
 * List prices in US dollars per million tokens, from each provider's pricing page (as of
 * late 2025; standard tier, prompts under any long-context surcharge). `usage.prices` in
 * hearth.json overrides any of them; a model in neither table is metered in tokens with no
 * cost (`unpricedCalls` says how many). Local providers cost nothing.
 */
export const builtinModelPrices: Record<string, ModelPrice> = {
  'openai/gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'openai/gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'openai/gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'openai/gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'openai/gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'openai/o3': { input: 2, output: 8, cachedInput: 0.5 },
  'openai/o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'openai/text-embedding-3-small': { input: 0.02, output: 0 },
  'openai/text-embedding-3-large': { input: 0.13, output: 0 },
  'anthropic/claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5 },
  'anthropic/claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic/claude-sonnet-4-0': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic/claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
  'anthropic/claude-3-5-haiku-latest': { input: 0.8, output: 4, cachedInput: 0.08 },
  'google/gemini-2.5-pro': { input: 1.25, output: 10, cachedInput: 0.31 },
  'google/gemini-2.5-flash': { input: 0.3, output: 2.5, cachedInput: 0.075 },
  'google/gemini-2.0-flash': { input: 0.1, output: 0.4, cachedInput: 0.025 },
};

/** Provider ids whose models run on this machine. */
const localProviders = new Set(['ollama']);

/** The price of `provider/model`: config first, then the built-in table; undefined when unknown. */
export function priceOf(
  provider: string,
  model: string,
  overrides: Readonly<Record<string, ModelPrice>>,
): ModelPrice | undefined {
  const key = `${provider}/${model}`;
  const price = overrides[key] ?? builtinModelPrices[key];
  if (price) return price;
  if (localProviders.has(provider)) return { input: 0, output: 0, cachedInput: 0 };
  return undefined;
}

/**
 * Dollars for one call. `inputTokens` includes the cached ones (as the AI SDK reports them);
 * cached tokens are charged at `cachedInput`.
 */
export function costOf(
  tokens: { inputTokens: number; outputTokens: number; cachedInputTokens: number },
  price: ModelPrice,
): number {
  const cached = Math.min(tokens.cachedInputTokens, tokens.inputTokens);
  const fresh = tokens.inputTokens - cached;
  return (fresh * price.input + cached * (price.cachedInput ?? price.input) + tokens.outputTokens * price.output) / 1e6;
}
