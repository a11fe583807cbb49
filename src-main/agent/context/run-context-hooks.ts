import type { Logger } from '../../base/logger.js';
import type { AgentMessage } from '../messages.js';
import type { CompactionOutcome } from './compaction.js';
import type { CompactionPolicy } from './compaction-policy.js';
import type { AssembledContext, ContextBudget, ContextEngine } from './context-engine.js';
import { truncateToolResults } from './tool-result-truncation.js';

/**
 * The seam between the context engine and the runner: the loop's `transformContext` hook and
 * the runner's `compact(reason)` / `truncateToolResults()` hooks, backed by one engine and
 * one per-run compaction policy. The runner decides when; this decides how.
 */
export interface RunContextHooks {
  /** Loop hook: history for the next call within budget; compacts first (preemptive) if it would not fit. */
  transformContext(messages: readonly AgentMessage[], budget: ContextBudget): Promise<AgentMessage[]>;
  /**
   * Runner hook. 'timeout' compacts only when ≥ 65% of the context is used (else 'skipped').
   * 'overflow' compacts up to 3 times per run, then truncates tool results once (reported as
   * 'skipped' with a detail), then throws ContextOverflowError with a message for the user.
   */
  compact(reason: 'preemptive' | 'timeout' | 'overflow'): Promise<CompactionOutcome>;
  /** Runner hook: cut oversized tool results in history; returns how many were cut. */
  truncateToolResults(): Promise<number>;
  /** The last assemble, for traces and status. */
  lastAssembled(): AssembledContext | undefined;
}

export function createRunContextHooks(input: {
  engine: ContextEngine;
  policy: CompactionPolicy;
  log: Logger;
  /** Context window used before the first transformContext call (timeout/overflow on call one). */
  contextWindow: number;
  signal?: AbortSignal;
}): RunContextHooks {
  const { engine, policy, log } = input;
  let last: AssembledContext | undefined;
  let budget: ContextBudget | undefined;

  const runCompaction = async (reason: 'preemptive' | 'timeout' | 'overflow') => {
    const outcome = await engine.compact({ reason, signal: input.signal });
    if (outcome.status !== 'compacted') policy.noteCompactionIneffective();
    return outcome;
  };
  const contextWindow = () => budget?.contextWindow ?? input.contextWindow;
  const truncate = async () => {
    const cut = truncateToolResults(engine.history(), { contextWindowTokens: contextWindow() });
    if (cut.truncatedCount > 0) await engine.bootstrap({ messages: cut.messages });
    return cut.truncatedCount;
  };
  const skipped = (reason: CompactionOutcome['reason'], detail: string): CompactionOutcome => ({
    status: 'skipped',
    reason,
    messages: [...engine.history()],
    detail,
  });

  return {
    async transformContext(messages, nextBudget) {
      budget = nextBudget;
      // The loop may hand us messages the engine has not seen yet (this turn's tool calls and results).
      const known = new Set(engine.history().map((m) => m.id));
      const fresh = messages.filter((m) => !known.has(m.id));
      // Edit and resend (or a regenerated answer read on a later turn) takes the place of messages
      // the engine already holds: they go from its history, so the model never reads the old branch.
      const replacing = fresh.find((m) => m.supersedes !== undefined && known.has(m.supersedes));
      if (replacing) {
        const history = engine.history();
        const from = history.findIndex((m) => m.id === replacing.supersedes);
        await engine.bootstrap({ messages: history.slice(0, from) });
      }
      if (fresh.length > 0) await engine.ingestBatch(fresh);
      let assembled = await engine.assemble(nextBudget);
      if (assembled.route === 'compact_only' || assembled.route === 'compact_then_truncate') {
        const decision = policy.beforeCall({
          estimatedPromptTokens: nextBudget.fixedTokens + assembled.requiredTokens,
          promptBudgetTokens: nextBudget.promptTokens,
        });
        if (decision.action === 'compact') {
          const outcome = await runCompaction('preemptive');
          if (outcome.status === 'compacted') assembled = await engine.assemble(nextBudget);
        }
      }
      last = assembled;
      return assembled.messages;
    },
    async compact(reason) {
      if (reason === 'preemptive') return runCompaction('preemptive');
      if (reason === 'timeout') {
        const used = last ? (budget?.fixedTokens ?? 0) + last.historyTokens : 0;
        const decision = policy.onTimeout({ usedTokens: used, contextWindow: contextWindow() });
        if (decision.action !== 'compact') {
          const why = decision.action === 'none' ? decision.why : decision.action;
          log.debug('timeout compaction skipped', { why });
          return skipped('timeout', why);
        }
        return runCompaction('timeout');
      }
      const decision = policy.onOverflow();
      if (decision.action === 'compact') return runCompaction('overflow');
      if (decision.action === 'truncate_tool_results') {
        const count = await truncate();
        return skipped('overflow', `compaction limit reached; truncated ${count} tool result(s) instead`);
      }
      if (decision.action === 'fail') throw decision.error;
      return skipped('overflow', decision.why);
    },
    truncateToolResults: truncate,
    lastAssembled: () => last,
  };
}
