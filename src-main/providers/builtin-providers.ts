import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOllama } from 'ollama-ai-provider-v2';
import type { Disposable } from '../base/disposable.js';
import { DisposableStore } from '../base/disposable.js';
import { builtinModelLimits } from './builtin-models.js';
import type {
  ModelProviderService,
  ProviderModelSettings,
  ProviderRegistry,
  SdkLanguageModel,
} from './provider-registry.js';

// Every SDK gets its key explicitly: with no key it would read process.env, which a capability must not.

function requireKey(settings: ProviderModelSettings): string {
  const value = settings.credential?.value;
  if (!value) throw new Error(`provider "${settings.providerId}" needs a credential but none was given`);
  return value;
}

const openAi: ModelProviderService = {
  kind: 'openai',
  displayName: 'OpenAI',
  requiresCredential: true,
  knownModels: builtinModelLimits.openai,
  createModel: (modelId, s) =>
    createOpenAI({ apiKey: requireKey(s), baseURL: s.baseURL, headers: s.headers, fetch: s.fetch }).chat(modelId),
};

const openAiResponses: ModelProviderService = {
  kind: 'openai-responses',
  displayName: 'OpenAI (Responses API)',
  requiresCredential: true,
  knownModels: builtinModelLimits.openai,
  toolResultImages: true,
  createModel: (modelId, s) =>
    createOpenAI({ apiKey: requireKey(s), baseURL: s.baseURL, headers: s.headers, fetch: s.fetch }).responses(modelId),
};

const anthropic: ModelProviderService = {
  kind: 'anthropic',
  displayName: 'Anthropic',
  requiresCredential: true,
  knownModels: builtinModelLimits.anthropic,
  toolResultImages: true,
  createModel(modelId, s) {
    const key = requireKey(s);
    // OAuth / session tokens go as a bearer token, API keys as x-api-key.
    const auth = s.credential?.kind === 'bearer' ? { authToken: key } : { apiKey: key };
    return createAnthropic({ ...auth, baseURL: s.baseURL, headers: s.headers, fetch: s.fetch })(modelId);
  },
};

const google: ModelProviderService = {
  kind: 'google',
  displayName: 'Google Gemini',
  requiresCredential: true,
  knownModels: builtinModelLimits.google,
  toolResultImages: true,
  createModel: (modelId, s) =>
    createGoogleGenerativeAI({ apiKey: requireKey(s), baseURL: s.baseURL, headers: s.headers, fetch: s.fetch })(
      modelId,
    ),
};

const bedrock: ModelProviderService = {
  kind: 'bedrock',
  displayName: 'Amazon Bedrock',
  requiresCredential: true,
  knownModels: builtinModelLimits.bedrock,
  toolResultImages: true,
  createModel(modelId, s) {
    const key = requireKey(s);
    if (!s.region) throw new Error(`provider "${s.providerId}" (bedrock) needs "region" in its config`);
    // A secret holding JSON with accessKeyId/secretAccessKey is SigV4; anything else is a Bedrock API key.
    const sigV4 = parseSigV4(key);
    const auth = sigV4 ?? { apiKey: key };
    return createAmazonBedrock({ ...auth, region: s.region, baseURL: s.baseURL, headers: s.headers, fetch: s.fetch })(
      modelId,
    );
  },
};

const ollama: ModelProviderService = {
  kind: 'ollama',
  displayName: 'Ollama',
  requiresCredential: false,
  createModel: (modelId, s) => createOllama({ baseURL: s.baseURL, headers: s.headers, fetch: s.fetch })(modelId),
};

const azure: ModelProviderService = {
  kind: 'azure',
  displayName: 'Azure OpenAI',
  requiresCredential: true,
  knownModels: builtinModelLimits.openai,
  createModel(modelId, s) {
    if (!s.baseURL && !s.resourceName) {
      throw new Error(`provider "${s.providerId}" (azure) needs "resourceName" or "baseURL" in its config`);
    }
    return createAzure({
      apiKey: requireKey(s),
      baseURL: s.baseURL,
      resourceName: s.resourceName,
      // A dated api-version lives on the deployments path; v1 takes the deployment in the body.
      ...(s.apiVersion && s.apiVersion !== 'v1' ? { apiVersion: s.apiVersion, useDeploymentBasedUrls: true } : {}),
      headers: s.headers,
      fetch: s.fetch,
    }).chat(modelId);
  },
};

const openAiCompatible: ModelProviderService = {
  kind: 'openai-compatible',
  displayName: 'OpenAI-compatible (DeepSeek, OpenRouter, LM Studio…)',
  // LM Studio needs none; hosted ones do. A missing profile is reported by the auth layer.
  requiresCredential: false,
  createModel(modelId, s) {
    if (!s.baseURL) throw new Error(`provider "${s.providerId}" (openai-compatible) needs "baseURL" in its config`);
    return createOpenAICompatible({
      name: s.providerId,
      baseURL: s.baseURL,
      apiKey: s.credential?.value,
      headers: s.headers,
      fetch: s.fetch,
      includeUsage: true,
    })(modelId);
  },
};

export const builtinProviders: readonly ModelProviderService[] = [
  openAi,
  openAiResponses,
  anthropic,
  google,
  bedrock,
  ollama,
  azure,
  openAiCompatible,
];

export function registerBuiltinProviders(registry: ProviderRegistry): Disposable {
  const store = new DisposableStore();
  for (const service of builtinProviders) store.add(registry.register(service));
  return store;
}

function parseSigV4(
  secret: string,
): { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined {
  if (!secret.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(secret) as Record<string, unknown>;
    if (typeof value.accessKeyId === 'string' && typeof value.secretAccessKey === 'string') {
      return {
        accessKeyId: value.accessKeyId,
        secretAccessKey: value.secretAccessKey,
        sessionToken: typeof value.sessionToken === 'string' ? value.sessionToken : undefined,
      };
    }
  } catch {
    // Not JSON: treated as an API key.
  }
  return undefined;
}

export type { SdkLanguageModel };
