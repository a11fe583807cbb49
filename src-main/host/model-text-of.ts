import type { RuntimeServices } from '../agent/index.js';
import type { TokenUsage } from '../protocol/index.js';

export type ModelText = (
  ref: string,
  prompt: string,
  signal: AbortSignal,
  maxOutputTokens?: number,
  /** The provider's token counts (memory's query rewrite counts its calls with them). */
  onUsage?: (usage: TokenUsage) => void,
) => Promise<string>;

/**
 * One short completion (the approval judge, the Dreams diary, model recall) once the runtime is
 * up; before that it throws. model-text.ts (and the AI SDK behind it) loads on the first call.
 */
export function modelTextOf(services: () => RuntimeServices | undefined): ModelText {
  return async (ref, prompt, signal, maxOutputTokens, onUsage) => {
    const live = services();
    if (!live) throw new Error('the model runtime is not ready');
    const { completeText } = await import('./model-text.js');
    return completeText(live, ref, prompt, signal, maxOutputTokens, onUsage);
  };
}
