import type { AgentRuntime } from '../../agent/index.js';
import type { Disposable } from '../../base/index.js';
import type { ModelSelection } from '../../providers/index.js';
import type { MethodRouter } from '../method-router.js';

export interface ModelsMethodsDeps {
  runtime: AgentRuntime;
  modelSelection(): ModelSelection | undefined;
}

export function registerModelsMethods(router: MethodRouter, deps: ModelsMethodsDeps): Disposable {
  return router.handle('models.list', (params) => {
    const selection = deps.modelSelection();
    return {
      models: deps.runtime.listModels(params.provider),
      primary: selection?.primary,
      fallbacks: selection?.fallbacks ?? [],
    };
  });
}
