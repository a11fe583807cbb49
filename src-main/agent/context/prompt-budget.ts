/**
 * Prompt budget arithmetic (ARCHITECTURE.md "Constants from the seed"): the prompt always
 * keeps minPrompt = min(8 000, 50% of the context window), so an over-generous output
 * reserve can never squeeze the prompt to nothing.
 */
export const MIN_PROMPT_TOKENS = 8_000;
export const MIN_PROMPT_SHARE = 0.5;

export interface PromptBudgetInput {
  /** The model's context window in tokens. */
  contextWindow: number;
  /** Tokens the user asked to keep free for the reply (and reasoning). */
  reserveTokens: number;
}

export interface PromptBudget {
  contextWindow: number;
  minPromptTokens: number;
  /** The reserve after clamping; equal to the input unless it would starve the prompt. */
  reserveTokens: number;
  /** What the whole prompt (system + tools + history) may use. */
  promptTokens: number;
  reserveClamped: boolean;
}

export function computePromptBudget(input: PromptBudgetInput): PromptBudget {
  const { contextWindow, reserveTokens } = input;
  if (!Number.isFinite(contextWindow) || !Number.isInteger(contextWindow) || contextWindow <= 0) {
    throw new RangeError(`contextWindow must be a positive integer of tokens, got ${String(contextWindow)}`);
  }
  if (!Number.isFinite(reserveTokens) || reserveTokens < 0) {
    throw new RangeError(`reserveTokens must be a non-negative number of tokens, got ${String(reserveTokens)}`);
  }
  const minPromptTokens = Math.min(MIN_PROMPT_TOKENS, Math.floor(contextWindow * MIN_PROMPT_SHARE));
  const maxReserve = contextWindow - minPromptTokens;
  const clamped = Math.min(Math.floor(reserveTokens), maxReserve);
  return {
    contextWindow,
    minPromptTokens,
    reserveTokens: clamped,
    promptTokens: contextWindow - clamped,
    reserveClamped: clamped !== Math.floor(reserveTokens),
  };
}

export type OverflowRoute = 'fits' | 'compact_only' | 'truncate_tool_results_only' | 'compact_then_truncate';

export interface OverflowRouteInput {
  /** Estimated tokens of everything the call would send. */
  estimatedPromptTokens: number;
  promptBudgetTokens: number;
  /** Tokens that truncating oversized tool results would win back. */
  toolResultSavingsTokens: number;
}

/**
 * Which remedy a prompt needs. Tool results are cut first: the model can re-run a tool,
 * but history summarised away is gone for good.
 */
export function chooseOverflowRoute(input: OverflowRouteInput): OverflowRoute {
  const overflow = input.estimatedPromptTokens - input.promptBudgetTokens;
  if (overflow <= 0) return 'fits';
  if (input.toolResultSavingsTokens >= overflow) return 'truncate_tool_results_only';
  if (input.toolResultSavingsTokens <= 0) return 'compact_only';
  return 'compact_then_truncate';
}
