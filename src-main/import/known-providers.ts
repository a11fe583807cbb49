import type { ProviderEntry, ProviderKind } from '../providers/index.js';

/**
 * Provider ids both tools use, and what Hearth needs to reach them. A Hearth provider id that is
 * itself a kind (openai, anthropic, google, ollama) needs no `providers` entry; the
 * OpenAI-compatible services below do (a base URL).
 */
const builtinKinds: readonly string[] = ['openai', 'anthropic', 'google', 'ollama'];

const compatibleBaseUrls: Record<string, string> = {
  openrouter: 'https://openrouter.ai/api/v1',
  deepseek: 'https://api.deepseek.com/v1',
  groq: 'https://api.groq.com/openai/v1',
  mistral: 'https://api.mistral.ai/v1',
  xai: 'https://api.x.ai/v1',
  moonshot: 'https://api.moonshot.ai/v1',
  nous: 'https://inference-api.nousresearch.com/v1',
  zai: 'https://api.z.ai/api/paas/v4',
};

/** Other tools' names for the same provider. */
const aliases: Record<string, string> = { gemini: 'google', kimi: 'moonshot', 'kimi-coding': 'moonshot', glm: 'zai' };

/** The environment variable each provider's key is read from, in both tools. */
export const providerKeyVariables: Record<string, string> = {
  OPENAI_API_KEY: 'openai',
  ANTHROPIC_API_KEY: 'anthropic',
  GEMINI_API_KEY: 'google',
  GOOGLE_API_KEY: 'google',
  OPENROUTER_API_KEY: 'openrouter',
  DEEPSEEK_API_KEY: 'deepseek',
  GROQ_API_KEY: 'groq',
  MISTRAL_API_KEY: 'mistral',
  XAI_API_KEY: 'xai',
  MOONSHOT_API_KEY: 'moonshot',
  KIMI_API_KEY: 'moonshot',
  NOUS_API_KEY: 'nous',
  ZAI_API_KEY: 'zai',
  GLM_API_KEY: 'zai',
};

/** Hearth's id for another tool's provider id. */
export function hearthProviderId(id: string): string {
  const lower = id.trim().toLowerCase();
  return aliases[lower] ?? lower;
}

/** The `providers` entry Hearth needs for a provider id, or undefined when it is a built-in kind. */
export function providerEntryFor(providerId: string): ProviderEntry | undefined {
  if (builtinKinds.includes(providerId)) return undefined;
  const baseURL = compatibleBaseUrls[providerId];
  return baseURL ? { kind: 'openai-compatible', baseURL } : undefined;
}

/** Whether Hearth can reach this provider id without the person adding anything. */
export function isKnownProvider(providerId: string): boolean {
  return builtinKinds.includes(providerId) || providerId in compatibleBaseUrls;
}

/** OpenClaw's `api` of a custom provider → Hearth's adapter kind. */
export function kindOfOpenClawApi(api: unknown): ProviderKind | undefined {
  switch (api) {
    case undefined:
    case 'openai-completions':
      return 'openai-compatible';
    case 'openai-responses':
      return 'openai-responses';
    case 'anthropic-messages':
      return 'anthropic';
    case 'google-generative-ai':
      return 'google';
    case 'ollama':
      return 'ollama';
    default:
      return undefined;
  }
}

/** A key written as `${VAR}` or `env:VAR` refers to the environment: nothing to move. */
export function isEnvReference(value: string): boolean {
  return /^\$\{?[A-Z_][A-Z0-9_]*\}?$/.test(value.trim()) || /^env:/i.test(value.trim());
}
