import type { Disposable } from '../base/disposable.js';
import { DisposableStore } from '../base/disposable.js';
import { builtinModelLimits } from './builtin-models.js';
import { lazyLanguageModel, type ProviderSdk, providerSdk } from './lazy-language-model.js';
import type {
  ModelProviderService,
  ProviderModelSettings,
  ProviderRegistry,
  SdkLanguageModel,
} from './provider-registry.js';

// Every SDK gets its key explicitly: with no key it would read process.env, which a capability must not.
// Each SDK is imported when a model of its kind is first called (lazy-language-model.ts); settings
// and credentials are still checked synchronously, when the model is created.

const openAiSdk = providerSdk('openai', '@ai-sdk/openai', () => import('@ai-sdk/openai'));
const anthropicSdk = providerSdk('anthropic', '@ai-sdk/anthropic', () => import('@ai-sdk/anthropic'));
const googleSdk = providerSdk('google', '@ai-sdk/google', () => import('@ai-sdk/google'));
const bedrockSdk = providerSdk('bedrock', '@ai-sdk/amazon-bedrock', () => import('@ai-sdk/amazon-bedrock'));
const ollamaSdk = providerSdk('ollama', 'ollama-ai-provider-v2', () => import('ollama-ai-provider-v2'));
const azureSdk = providerSdk('azure', '@ai-sdk/azure', () => import('@ai-sdk/azure'));
const openAiCompatibleSdk = providerSdk(
  'openai-compatible',
  '@ai-sdk/openai-compatible',
  () => import('@ai-sdk/openai-compatible'),
);

/** The SDK each built-in provider kind loads on first use. */
export const builtinProviderSdks: Readonly<Record<string, ProviderSdk<unknown>>> = {
  openai: openAiSdk,
  'openai-responses': openAiSdk,
  anthropic: anthropicSdk,
  google: googleSdk,
  bedrock: bedrockSdk,
  ollama: ollamaSdk,
  azure: azureSdk,
  'openai-compatible': openAiCompatibleSdk,
};

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
  createModel(modelId, s) {
    const apiKey = requireKey(s);
    return lazyLanguageModel({
      sdk: openAiSdk,
      provider: 'openai.chat',
      modelId,
      create: ({ createOpenAI }) =>
        createOpenAI({ apiKey, baseURL: s.baseURL, headers: s.headers, fetch: s.fetch }).chat(modelId),
    });
  },
};

const openAiResponses: ModelProviderService = {
  kind: 'openai-responses',
  displayName: 'OpenAI (Responses API)',
  requiresCredential: true,
  knownModels: builtinModelLimits.openai,
  toolResultImages: true,
  createModel(modelId, s) {
    const apiKey = requireKey(s);
    return lazyLanguageModel({
      sdk: openAiSdk,
      provider: 'openai.responses',
      modelId,
      create: ({ createOpenAI }) =>
        createOpenAI({ apiKey, baseURL: s.baseURL, headers: s.headers, fetch: s.fetch }).responses(modelId),
    });
  },
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
    return lazyLanguageModel({
      sdk: anthropicSdk,
      provider: 'anthropic.messages',
      modelId,
      create: ({ createAnthropic }) =>
        createAnthropic({ ...auth, baseURL: s.baseURL, headers: s.headers, fetch: s.fetch })(modelId),
    });
  },
};

const google: ModelProviderService = {
  kind: 'google',
  displayName: 'Google Gemini',
  requiresCredential: true,
  knownModels: builtinModelLimits.google,
  toolResultImages: true,
  createModel(modelId, s) {
    const apiKey = requireKey(s);
    return lazyLanguageModel({
      sdk: googleSdk,
      provider: 'google.generative-ai',
      modelId,
      create: ({ createGoogleGenerativeAI }) =>
        createGoogleGenerativeAI({ apiKey, baseURL: s.baseURL, headers: s.headers, fetch: s.fetch })(modelId),
    });
  },
};

const bedrock: ModelProviderService = {
  kind: 'bedrock',
  displayName: 'Amazon Bedrock',
  requiresCredential: true,
  knownModels: builtinModelLimits.bedrock,
  toolResultImages: true,
  createModel(modelId, s) {
    const key = requireKey(s);
    const region = s.region;
    if (!region) throw new Error(`provider "${s.providerId}" (bedrock) needs "region" in its config`);
    // A secret holding JSON with accessKeyId/secretAccessKey is SigV4; anything else is a Bedrock API key.
    const sigV4 = parseSigV4(key);
    const auth = sigV4 ?? { apiKey: key };
    return lazyLanguageModel({
      sdk: bedrockSdk,
      provider: 'amazon-bedrock',
      modelId,
      create: ({ createAmazonBedrock }) =>
        createAmazonBedrock({ ...auth, region, baseURL: s.baseURL, headers: s.headers, fetch: s.fetch })(modelId),
    });
  },
};

const ollama: ModelProviderService = {
  kind: 'ollama',
  displayName: 'Ollama',
  requiresCredential: false,
  createModel: (modelId, s) =>
    lazyLanguageModel({
      sdk: ollamaSdk,
      provider: 'ollama.responses',
      modelId,
      create: ({ createOllama }) => createOllama({ baseURL: s.baseURL, headers: s.headers, fetch: s.fetch })(modelId),
    }),
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
    const apiKey = requireKey(s);
    return lazyLanguageModel({
      sdk: azureSdk,
      provider: 'azure.chat',
      modelId,
      create: ({ createAzure }) =>
        createAzure({
          apiKey,
          baseURL: s.baseURL,
          resourceName: s.resourceName,
          // A dated api-version lives on the deployments path; v1 takes the deployment in the body.
          ...(s.apiVersion && s.apiVersion !== 'v1' ? { apiVersion: s.apiVersion, useDeploymentBasedUrls: true } : {}),
          headers: s.headers,
          fetch: s.fetch,
        }).chat(modelId),
    });
  },
};

const openAiCompatible: ModelProviderService = {
  kind: 'openai-compatible',
  displayName: 'OpenAI-compatible (DeepSeek, OpenRouter, LM Studio…)',
  // LM Studio needs none; hosted ones do. A missing profile is reported by the auth layer.
  requiresCredential: false,
  createModel(modelId, s) {
    const baseURL = s.baseURL;
    if (!baseURL) throw new Error(`provider "${s.providerId}" (openai-compatible) needs "baseURL" in its config`);
    return lazyLanguageModel({
      sdk: openAiCompatibleSdk,
      // The SDK names its chat model after the `name` given below.
      provider: `${s.providerId}.chat`,
      modelId,
      create: ({ createOpenAICompatible }) =>
        createOpenAICompatible({
          name: s.providerId,
          baseURL,
          apiKey: s.credential?.value,
          headers: s.headers,
          fetch: s.fetch,
          includeUsage: true,
        })(modelId),
    });
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
