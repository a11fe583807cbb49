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
  /**
   * Why an image in a tool result would not reach the model, or undefined when it would: the
   * model must take images (its `input` in config, else in the built-in table; an unknown model
   * takes text only) and its provider's API must carry images in tool results.
   */
  imageRefusal(ref: ModelRef): string | undefined;
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
    imageRefusal(ref) {
      const id = formatModelRef(ref);
      // Per field, so config that only corrects a known model's limits keeps its input kinds.
      const configured = deps.providers()[ref.provider]?.models?.[ref.model]?.input;
      const service = deps.registry.get(kindOf(ref.provider));
      const input = configured ?? service?.knownModels?.[ref.model]?.input ?? ['text'];
      if (!input.includes('image'))
        return `the model ${id} takes text only${configured ? '' : ` (to change that, set providers.${ref.provider}.models.${ref.model}.input to ["text", "image"])`}`;
      if (!service?.toolResultImages)
        return `the ${kindOf(ref.provider)} API cannot carry images in a tool result, so ${id} cannot see them here (the anthropic, openai-responses, google and bedrock kinds can)`;
      return undefined;
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
