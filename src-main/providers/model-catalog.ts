import type { Logger } from '../base/logger.js';
import { formatModelRef, type ModelRef } from './model-ref.js';
import type { ModelLimits, ProvidersConfig } from './provider-config.js';
import type { ProviderRegistry } from './provider-registry.js';

export interface ResolvedModelLimits extends ModelLimits {
  /** False when neither config nor the built-in table knew the model: defaults were used. */
  known: boolean;
}

export interface ModelCatalogEntry {
  id: string;
  name: string;
  provider: string;
  contextWindow: number;
  maxOutputTokens: number;
}

export interface ModelCatalog {
  limits(ref: ModelRef): ResolvedModelLimits;
  /** Every model named in config or the built-in table for the configured providers. */
  list(providerIds: readonly string[]): ModelCatalogEntry[];
}

/** Conservative enough for small local models, so budgets never assume more room than there is. */
export const defaultModelLimits: ModelLimits = { contextWindow: 32_000, maxOutputTokens: 4_096 };

export interface ModelCatalogDeps {
  registry: ProviderRegistry;
  providers: () => ProvidersConfig;
  log: Logger;
  defaults?: ModelLimits;
}

export function createModelCatalog(deps: ModelCatalogDeps): ModelCatalog {
  const warned = new Set<string>();
  const defaults = deps.defaults ?? defaultModelLimits;

  function kindOf(providerId: string): string {
    return deps.providers()[providerId]?.kind ?? providerId;
  }

  function knownFor(providerId: string): Record<string, ModelLimits> {
    return {
      ...(deps.registry.get(kindOf(providerId))?.knownModels ?? {}),
      ...(deps.providers()[providerId]?.models ?? {}),
    };
  }

  return {
    limits(ref) {
      const found = knownFor(ref.provider)[ref.model];
      if (found) return { ...found, known: true };
      const id = formatModelRef(ref);
      if (!warned.has(id)) {
        warned.add(id);
        deps.log.warn('unknown model: using default limits', { model: id, ...defaults });
      }
      return { ...defaults, name: ref.model, known: false };
    },
    list(providerIds) {
      return providerIds.flatMap((provider) =>
        Object.entries(knownFor(provider)).map(([model, limits]) => ({
          id: formatModelRef({ provider, model }),
          name: limits.name ?? model,
          provider,
          contextWindow: limits.contextWindow,
          maxOutputTokens: limits.maxOutputTokens,
        })),
      );
    },
  };
}
