import type { AgentRuntime } from '../../agent/index.js';
import type { Disposable } from '../../base/index.js';
import type { ModelsListResult } from '../../protocol/methods/models.js';
import type { ModelSelection, OllamaDetection } from '../../providers/index.js';
import type { MethodRouter } from '../method-router.js';

export interface ModelsMethodsDeps {
  runtime: AgentRuntime;
  modelSelection(): ModelSelection | undefined;
  /** Looks for an Ollama server on this machine (GET /api/tags with a short timeout). */
  detectOllama?(): Promise<OllamaDetection>;
}

export function registerModelsMethods(router: MethodRouter, deps: ModelsMethodsDeps): Disposable {
  return router.handle('models.list', async (params) => {
    const selection = deps.modelSelection();
    const result: ModelsListResult = {
      models: deps.runtime.listModels(params.provider),
      primary: selection?.primary,
      fallbacks: selection?.fallbacks ?? [],
    };
    // Offered during onboarding: a local Ollama needs no key, so finding one is enough to start.
    if (params.provider === 'ollama' && deps.detectOllama) {
      const found = await deps.detectOllama();
      result.local = {
        ollama: found.available
          ? { available: true, models: found.models, baseURL: found.baseURL }
          : { available: false, models: [], reason: found.reason },
      };
    }
    return result;
  });
}
