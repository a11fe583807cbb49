import type { Logger } from '../../base/logger.js';
import type { AgentLoopHooks } from '../loop/agent-loop.js';
import type { AgentMessage } from '../messages.js';
import type { RunnerContextHooks } from '../runner/runner-types.js';
import { applyCompactionSummaries } from './apply-compactions.js';
import type { CacheTraceWriter } from './cache-trace.js';
import { type CallTrace, createCallTrace } from './call-trace.js';
import { createCompactionPolicy } from './compaction-policy.js';
import type { ContextEngine } from './context-engine.js';
import { createRunContextHooks } from './run-context-hooks.js';
import { loadTokenizerWhenLikely } from './token-budget.js';
import { toolResultCharLimit, truncateToolOutput } from './tool-result-truncation.js';

export interface TurnHooksDeps {
  /** The session's engine (one per session, kept across turns). */
  engine: ContextEngine;
  contextWindow: number;
  sessionKey: string;
  log: Logger;
  /**
   * Ids of compaction summaries already in the transcript. Shared by every turn of a session,
   * so a summary is appended once even when later turns see it again.
   */
  persistedSummaries: Set<string>;
  /** Appends to the session's transcript (compaction summaries, so a restart resumes compacted). */
  appendToTranscript(messages: AgentMessage[]): Promise<void>;
  /**
   * What the model should read before the new message, hidden from the user: the workspace
   * truncation warning and what memory recalls about it. Called once per turn; must not throw
   * for a missing memory (answer undefined instead).
   */
  turnPrefix(input: { message: string; history: string[] }): Promise<string | undefined>;
  traceWriter: CacheTraceWriter;
  /** A short id for this turn's cache-trace call ids. */
  turnId: string;
}

export type TurnHooks = AgentLoopHooks &
  RunnerContextHooks & {
    /**
     * The new user message is on disk: start the turn prefix (active recall) now, so it runs
     * while the system prompt and tools are assembled rather than after them. The context
     * hook then awaits this same answer for that message instead of asking again.
     */
    userDurable(user: { id: string; text: string }, earlierUserTexts: string[]): void;
    /**
     * The turn's end event is out: the cache trace of its model calls is recorded now, off the
     * path from the request to the answer (hashing every stage's messages costs ~1 ms a call).
     */
    afterTurn(): void;
  };

/**
 * Everything one turn does around the model calls, built per turn:
 * - context: history assembled by the session's engine under budget, compacting when needed;
 * - compaction summaries written to the transcript as soon as they exist;
 * - a hidden prefix on the new user message (truncation warning + active recall), computed once;
 * - tool results cut as they arrive (≤ 30% of the context, ≤ 16 000 chars, errors kept in the tail);
 * - one cache-trace record set per model call (a turn with tools makes several).
 */
export function createTurnHooks(deps: TurnHooksDeps): TurnHooks {
  const { engine, persistedSummaries: persisted } = deps;
  const contextHooks = createRunContextHooks({
    engine,
    policy: createCompactionPolicy(),
    log: deps.log,
    contextWindow: deps.contextWindow,
  });
  const calls = new Map<number, CallTrace>();
  const traced: Parameters<NonNullable<AgentLoopHooks['traceContext']>>[0][] = [];
  let recall: { messageId: string; prefix: Promise<string | undefined> } | undefined;
  const startRecall = (messageId: string, message: string, history: string[]) => {
    const prefix = deps.turnPrefix({ message, history });
    // Awaited by transformContext; a turn that fails before it must not leave an unhandled rejection.
    prefix.catch(() => {});
    recall = { messageId, prefix };
  };

  const persistSummaries = async () => {
    const fresh = engine.history().filter((m) => m.kind === 'compaction_summary' && !persisted.has(m.id));
    if (fresh.length === 0) return;
    for (const m of fresh) persisted.add(m.id);
    await deps.appendToTranscript(fresh);
  };

  return {
    ...contextHooks,
    userDurable(user, earlierUserTexts) {
      if (!recall) startRecall(user.id, user.text, earlierUserTexts);
    },
    async compact(reason) {
      const outcome = await contextHooks.compact(reason);
      await persistSummaries();
      return outcome;
    },
    async transformContext(loaded, budget) {
      for (const m of loaded) if (m.kind === 'compaction_summary') persisted.add(m.id);
      const assembled = await contextHooks.transformContext(applyCompactionSummaries(loaded), budget);
      await persistSummaries();
      const lastUser = [...assembled].reverse().find((m) => m.kind === 'user');
      if (lastUser?.kind !== 'user') return assembled;
      if (!recall) {
        // Recall modes `recent` and `full` read the session's earlier user messages too.
        const history = assembled.flatMap((m) => (m.kind === 'user' && m !== lastUser ? [m.text] : []));
        startRecall(lastUser.id, lastUser.text, history);
      }
      const { messageId } = recall!;
      const prefix = await recall!.prefix;
      if (!prefix) return assembled;
      return assembled.map((m) => (m.id === messageId && m.kind === 'user' ? { ...m, hiddenPrefix: prefix } : m));
    },
    afterToolCall(_call, result) {
      const cut = truncateToolOutput(result.output, toolResultCharLimit(deps.contextWindow));
      if (!cut.truncated) return result;
      return {
        ...result,
        output: cut.text,
        truncated: { originalChars: cut.originalChars, keptChars: cut.keptChars },
      };
    },
    traceContext(stage) {
      // Kept as given (messages are immutable once made) until the turn ends: see afterTurn.
      traced.push(stage);
    },
    afterTurn() {
      // The answer is out: if this turn's budget came close, the tokenizer loads now, not on a later turn.
      loadTokenizerWhenLikely();
      for (const { step, stage, system, tools, messages } of traced.splice(0)) {
        let call = calls.get(step);
        if (!call) {
          call = createCallTrace({
            writer: deps.traceWriter,
            sessionKey: deps.sessionKey,
            callId: `${deps.turnId}-${step}`,
            log: deps.log,
          });
          calls.set(step, call);
        }
        try {
          call.stage(stage, { system, tools, messages: typeof messages === 'function' ? messages() : messages });
        } catch (error) {
          // Tracing is diagnostics: a snapshot that cannot be made is logged, never thrown at the turn.
          deps.log.warn('cache trace stage skipped', {
            stage,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    },
  };
}
