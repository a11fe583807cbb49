import { isTokenizerLoaded, loadTokenizer } from '../../base/o200k-tokens.js';
import type { AgentMessage } from '../messages.js';
import type { AssembledContext, ContextBudget } from './context-engine.js';
import {
  estimateMessagesTokens,
  estimateTokens,
  messagesTokensUpperBound,
  tokensUpperBound,
} from './token-estimate.js';

/**
 * Budgeting that counts exactly only where it matters. The o200k tables cost ~230 ms and ~68 MB
 * to load, and most calls fit their budget by far: a byte count (every o200k token is ≥ 1 byte)
 * settles those. Only when the bound would not fit — so trimming or compaction could depend on
 * it — are the texts counted exactly, with the same figures and decisions as before.
 */

/**
 * A call's budget whose fixed part (system prompt and tool list) is known by its bound at once
 * and counted exactly only when something reads `fixedTokens`.
 */
export function budgetWithFixedText(input: { promptTokens: number; contextWindow: number; fixedText: string }) {
  const { fixedText } = input;
  let fixed: number | undefined;
  const budget: ContextBudget = {
    promptTokens: input.promptTokens,
    contextWindow: input.contextWindow,
    fixedTokensBound: tokensUpperBound(fixedText),
    get fixedTokens() {
      fixed ??= estimateTokens(fixedText);
      return fixed;
    },
  };
  return budget;
}

/**
 * Whether the fixed part and `messages` fit `budget.promptTokens` by their upper bounds: when
 * they do, exact counts fit too (each is ≤ its bound) and nothing needs trimming; when they do
 * not, the caller counts exactly.
 */
export function fitsByUpperBound(messages: readonly AgentMessage[], budget: ContextBudget): boolean {
  const bound = (budget.fixedTokensBound ?? budget.fixedTokens) + messagesTokensUpperBound(messages);
  if (bound > budget.promptTokens * TOKENIZER_LIKELY_SHARE) tokenizerLikely = true;
  return bound <= budget.promptTokens;
}

/**
 * What an engine reports when it sends the whole history: the token figures are counted on first
 * read (a timeout's compaction check reads them; an ordinary turn does not).
 */
export function wholeHistoryAssembled(messages: readonly AgentMessage[]): AssembledContext {
  // Counted from a copy of its own: whoever gets `messages` may change that array.
  const counted = [...messages];
  let tokens: number | undefined;
  const count = () => {
    tokens ??= estimateMessagesTokens(counted);
    return tokens;
  };
  return {
    messages: [...messages],
    route: 'fits',
    omittedCount: 0,
    truncatedToolResults: 0,
    get historyTokens() {
      return count();
    },
    get requiredTokens() {
      return count();
    },
  };
}

/**
 * A bound above this share of its budget means the history is a few turns from needing exact
 * counts (the bound is 2–4.5× the count: English prose ~3.8×, code ~4.4×, CJK ~4.2×, emoji
 * ~2.3×): the tables are loaded in idle time then, not on the turn that first needs them.
 */
export const TOKENIZER_LIKELY_SHARE = 0.5;

let tokenizerLikely = false;
let loadScheduled = false;

export type IdleScheduler = (run: () => void) => void;

/** After the turn's final event: the next check runs once the event loop is done with what is queued. */
const afterQueuedWork: IdleScheduler = (run) => {
  setTimeout(run, 0).unref();
};

/**
 * Called after a turn's final event: loads the tokenizer in idle time when a budget came close
 * enough that exact counts are likely soon. Returns whether a load was scheduled.
 */
export function loadTokenizerWhenLikely(schedule: IdleScheduler = afterQueuedWork): boolean {
  if (!tokenizerLikely || loadScheduled || isTokenizerLoaded()) return false;
  loadScheduled = true;
  schedule(() => {
    loadTokenizer();
  });
  return true;
}
