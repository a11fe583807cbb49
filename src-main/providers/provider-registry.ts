import type { LanguageModel } from 'ai';
import { type Disposable, toDisposable } from '../base/disposable.js';
import type { ModelLimits } from './provider-config.js';

/** A model instance the AI SDK can stream from. */
export type SdkLanguageModel = Exclude<LanguageModel, string>;

/** How a request authenticates: an API key header, or a bearer token (OAuth / session tokens). */
export interface ProviderCredential {
  kind: 'api_key' | 'bearer';
  value: string;
}

export interface ProviderModelSettings {
  /** The provider id from config (e.g. `deepseek` for an openai-compatible entry). */
  providerId: string;
  credential?: ProviderCredential;
  baseURL?: string;
  resourceName?: string;
  region?: string;
  /** Azure's api-version (see providerEntrySchema). */
  apiVersion?: string;
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
}

/**
 * One kind of model provider (an SDK adapter). Built-ins register at start; plugins may
 * add more through the plugin SDK (`ModelProviderContribution`).
 */
export interface ModelProviderService {
  /** Registry key, matched against `providers.<id>.kind` (or the provider id itself). */
  readonly kind: string;
  readonly displayName: string;
  /** False for local servers such as Ollama: no auth profile is needed. */
  readonly requiresCredential: boolean;
  /** Throws a clear error when settings are unusable (e.g. a missing baseURL). */
  createModel(modelId: string, settings: ProviderModelSettings): SdkLanguageModel;
  /** Limits for well-known models; config overrides them. */
  readonly knownModels?: Record<string, ModelLimits>;
  /**
   * Whether its API carries an image inside a tool result (Anthropic, Responses, Gemini,
   * Bedrock). Chat Completions APIs do not: the SDK turns the image into base64 text there.
   */
  readonly toolResultImages?: boolean;
}

export interface ProviderRegistry {
  register(service: ModelProviderService): Disposable;
  get(kind: string): ModelProviderService | undefined;
  list(): ModelProviderService[];
}

export function createProviderRegistry(): ProviderRegistry {
  const services = new Map<string, ModelProviderService>();
  return {
    register(service) {
      if (services.has(service.kind)) throw new Error(`model provider "${service.kind}" is already registered`);
      services.set(service.kind, service);
      return toDisposable(() => {
        if (services.get(service.kind) === service) services.delete(service.kind);
      });
    },
    get: (kind) => services.get(kind),
    list: () => [...services.values()],
  };
}
