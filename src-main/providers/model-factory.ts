import { HearthError } from '../base/errors.js';
import type { ModelRef } from './model-ref.js';
import type { ProviderEntry, ProvidersConfig } from './provider-config.js';
import type {
  ModelProviderService,
  ProviderCredential,
  ProviderRegistry,
  SdkLanguageModel,
} from './provider-registry.js';

/** A model reference that cannot be served by the configured providers: a config problem, not a failover. */
export class ModelResolutionError extends HearthError {
  constructor(message: string) {
    super('bad_request', message);
    this.name = 'ModelResolutionError';
  }
}

export interface ResolvedProvider {
  providerId: string;
  service: ModelProviderService;
  entry?: ProviderEntry;
}

export interface ModelFactory {
  /** Which adapter serves a provider id: `providers.<id>.kind`, else a built-in kind of the same name. */
  provider(providerId: string): ResolvedProvider;
  create(ref: ModelRef, credential: ProviderCredential | undefined): SdkLanguageModel;
  /** Provider ids that can be used: configured ones plus built-ins named directly. */
  configuredProviderIds(): string[];
}

export interface ModelFactoryDeps {
  registry: ProviderRegistry;
  providers: () => ProvidersConfig;
  fetch?: typeof globalThis.fetch;
  /** Wraps every model created (the usage meter counts and caps calls here). */
  wrapModel?(model: SdkLanguageModel, ref: ModelRef): SdkLanguageModel;
}

export function createModelFactory(deps: ModelFactoryDeps): ModelFactory {
  const factory: ModelFactory = {
    provider(providerId) {
      const entry = deps.providers()[providerId];
      const kind = entry?.kind ?? providerId;
      const service = deps.registry.get(kind);
      if (!service) {
        const known = deps.registry
          .list()
          .map((s) => s.kind)
          .join(', ');
        throw new ModelResolutionError(
          entry
            ? `provider "${providerId}" has kind "${kind}", which no installed provider implements (known: ${known})`
            : `unknown provider "${providerId}": add it under "providers" in hearth.json or use one of: ${known}`,
        );
      }
      return { providerId, service, entry };
    },
    create(ref, credential) {
      const { service, entry } = factory.provider(ref.provider);
      let model: SdkLanguageModel;
      try {
        model = service.createModel(ref.model, {
          providerId: ref.provider,
          credential,
          baseURL: entry?.baseURL,
          resourceName: entry?.resourceName,
          region: entry?.region,
          apiVersion: entry?.apiVersion,
          headers: entry?.headers,
          fetch: deps.fetch,
        });
      } catch (error) {
        throw new ModelResolutionError(`cannot use model "${ref.provider}/${ref.model}": ${(error as Error).message}`);
      }
      return deps.wrapModel ? deps.wrapModel(model, ref) : model;
    },
    configuredProviderIds: () => Object.keys(deps.providers()),
  };
  return factory;
}
