import type { ActiveRecallDeps } from './active-recall.js';

export interface ModelRecallDeps {
  /** `memory.recall.model`: false (off), true (the agent's own model) or a model reference. */
  model: boolean | string;
  /** The agent's primary model reference, read at each call (an edit of hearth.json applies). */
  primaryModel(): string | undefined;
  /** One short completion; may throw (active recall then goes on without a prefix). */
  complete(modelRef: string, prompt: string, signal: AbortSignal, maxOutputTokens: number): Promise<string>;
}

/**
 * Model recall (opt-in, `memory.recall.model`): when the cheap lexical/vector pass finds only
 * weak hits, a model reads them against the message and states in a sentence what matters, or
 * answers NONE. One small call, only on such turns; no model configured means no call.
 */
export function createModelRecall(deps: ModelRecallDeps): NonNullable<ActiveRecallDeps['modelRecall']> {
  return async (request, candidates, signal) => {
    if (deps.model === false) return undefined;
    const ref = typeof deps.model === 'string' ? deps.model : deps.primaryModel();
    if (!ref) return undefined;
    const answer = await deps.complete(ref, modelRecallPrompt(request.message, candidates), signal, 80);
    const trimmed = answer.trim();
    return !trimmed || /^none\b/i.test(trimmed) ? undefined : trimmed;
  };
}

export function modelRecallPrompt(message: string, candidates: readonly { snippet: string }[]): string {
  const notes = candidates.map((c, i) => `${i + 1}. ${c.snippet.replace(/\s+/g, ' ').slice(0, 300)}`).join('\n');
  return `Message: ${message}\n\nMemory notes:\n${notes}\n\nIf any note matters for answering the message, state what it says in at most 200 characters. Otherwise answer exactly NONE.`;
}
