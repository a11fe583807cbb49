import { type ModelCatalog, parseModelRef, resolveModelSelection } from '../providers/index.js';
import type { ToolContext } from '../tools/tool.js';
import type { HearthConfigService } from './hearth-config.js';

/**
 * Why the model of a tool call would not see an image (a text-only model, or an API kind that
 * turns image parts into text), or undefined when it would. Tools that produce images (`read`,
 * the browser's screenshots) send a note instead of bytes the model cannot use.
 */
export function modelImageRefusal(deps: {
  config: Pick<HearthConfigService, 'current'>;
  /** The model catalog, once the runtime exists (it is built after the tools). */
  catalog(): Pick<ModelCatalog, 'imageRefusal'> | undefined;
}): (context: Pick<ToolContext, 'agentId' | 'modelRef'>) => string | undefined {
  return ({ agentId, modelRef }) => {
    // The call's own model; without one (a tool run outside a turn), the agent's primary.
    const ref = modelRef ?? resolveModelSelection(deps.config.current.agents, agentId)?.primary;
    const catalog = deps.catalog();
    if (!ref || !catalog) return undefined;
    try {
      return catalog.imageRefusal(parseModelRef(ref));
    } catch {
      return undefined; // a malformed ref fails the turn elsewhere, with its own message
    }
  };
}
