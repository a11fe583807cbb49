/**
 * When to compact (ARCHITECTURE.md "Constants from the seed"): preemptively before a call that
 * would not fit, on a timeout once ≥ 65% of the context is in use, and on a provider's
 * context-overflow error — at most 3 overflow compactions per run, then one tool-result
 * truncation, then a clear error. One policy object per run: it counts.
 */
export const TIMEOUT_COMPACTION_USAGE = 0.65;
export const MAX_OVERFLOW_COMPACTIONS = 3;

export type CompactionDecision =
  | { action: 'none'; why: string }
  | { action: 'compact'; reason: 'preemptive' | 'timeout' | 'overflow'; attempt?: number }
  | { action: 'truncate_tool_results' }
  | { action: 'fail'; error: ContextOverflowError };

/** What the runner surfaces when nothing more can make the prompt fit. */
export class ContextOverflowError extends Error {
  readonly code = 'context_overflow';
  constructor(message: string) {
    super(message);
    this.name = 'ContextOverflowError';
  }
}

export interface CompactionPolicyOptions {
  maxOverflowCompactions?: number;
  timeoutUsageThreshold?: number;
}

export interface CompactionPolicy {
  /** Before an LLM call: compact if the estimate does not fit the prompt budget. */
  beforeCall(input: { estimatedPromptTokens: number; promptBudgetTokens: number }): CompactionDecision;
  /** The call timed out (slow first token): compact only when the context is mostly full. */
  onTimeout(input: { usedTokens: number; contextWindow: number }): CompactionDecision;
  /** The provider said the context overflowed. */
  onOverflow(): CompactionDecision;
  /** Compaction came back "failed" or "skipped": further overflow compactions are pointless this run. */
  noteCompactionIneffective(): void;
  readonly overflowCompactions: number;
}

export function createCompactionPolicy(options: CompactionPolicyOptions = {}): CompactionPolicy {
  const maxOverflow = options.maxOverflowCompactions ?? MAX_OVERFLOW_COMPACTIONS;
  const threshold = options.timeoutUsageThreshold ?? TIMEOUT_COMPACTION_USAGE;
  if (!Number.isInteger(maxOverflow) || maxOverflow < 0) {
    throw new RangeError(`maxOverflowCompactions must be a non-negative integer, got ${String(maxOverflow)}`);
  }
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RangeError(`timeoutUsageThreshold must be in (0, 1], got ${String(threshold)}`);
  }
  let overflowCompactions = 0;
  let truncated = false;
  let compactionExhausted = false;

  return {
    get overflowCompactions() {
      return overflowCompactions;
    },
    beforeCall({ estimatedPromptTokens, promptBudgetTokens }) {
      if (estimatedPromptTokens <= promptBudgetTokens) return { action: 'none', why: 'fits' };
      return { action: 'compact', reason: 'preemptive' };
    },
    onTimeout({ usedTokens, contextWindow }) {
      if (contextWindow <= 0) throw new RangeError(`contextWindow must be positive, got ${String(contextWindow)}`);
      const usage = usedTokens / contextWindow;
      if (usage >= threshold) return { action: 'compact', reason: 'timeout' };
      return {
        action: 'none',
        why: `context ${Math.round(usage * 100)}% used, below ${Math.round(threshold * 100)}%: a timeout here is not about size`,
      };
    },
    onOverflow() {
      if (!compactionExhausted && overflowCompactions < maxOverflow) {
        overflowCompactions += 1;
        return { action: 'compact', reason: 'overflow', attempt: overflowCompactions };
      }
      if (!truncated) {
        truncated = true;
        return { action: 'truncate_tool_results' };
      }
      return {
        action: 'fail',
        error: new ContextOverflowError(
          `the conversation no longer fits the model's context window after ${overflowCompactions} compaction(s) and tool-result truncation; start a new session or pick a model with a larger context`,
        ),
      };
    },
    noteCompactionIneffective() {
      compactionExhausted = true;
    },
  };
}
