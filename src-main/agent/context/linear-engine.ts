import type { AgentMessage } from '../messages.js';
import { compactSession } from './compact-session.js';
import type { CompactionOutcome } from './compaction.js';
import type {
  AssembledContext,
  ContextBudget,
  ContextEngine,
  ContextEngineDeps,
  ContextEngineFactory,
  MaintenanceReport,
  SubagentEnded,
  SubagentSeed,
} from './context-engine.js';
import { subagentEndedNotice } from './context-engine.js';
import { chooseOverflowRoute } from './prompt-budget.js';
import { fitsByUpperBound, wholeHistoryAssembled } from './token-budget.js';
import { estimateMessagesTokens } from './token-estimate.js';
import { truncateToolResults } from './tool-result-truncation.js';
import { fitNewestTurns } from './turns.js';

export const LINEAR_CONTEXT_ENGINE_ID = 'linear';

/**
 * The default engine: the whole history in order, compaction summaries in place of what they
 * replace. Over budget it cuts tool results first (re-fetchable), then — only if the runner's
 * compaction did not run or failed — leaves out the oldest turns so the call still goes out.
 */
export class LinearContextEngine implements ContextEngine {
  readonly id: string = LINEAR_CONTEXT_ENGINE_ID;
  protected messages: AgentMessage[] = [];
  private lastContextWindow: number | undefined;

  constructor(protected readonly deps: ContextEngineDeps) {}

  async bootstrap(init: { messages: readonly AgentMessage[] }): Promise<void> {
    this.messages = [...init.messages];
  }

  async ingest(message: AgentMessage): Promise<void> {
    this.messages.push(message);
  }

  async ingestBatch(messages: readonly AgentMessage[]): Promise<void> {
    this.messages.push(...messages);
  }

  async afterTurn(): Promise<void> {
    // Linear history needs no per-turn upkeep; summaries are made when the budget asks.
  }

  history(): readonly AgentMessage[] {
    return this.messages;
  }

  async assemble(budget: ContextBudget): Promise<AssembledContext> {
    validateBudget(budget);
    this.lastContextWindow = budget.contextWindow;
    // Far under budget (most calls) the byte bound says so without the tokenizer.
    if (fitsByUpperBound(this.messages, budget)) return wholeHistoryAssembled(this.messages);
    const available = Math.max(0, budget.promptTokens - budget.fixedTokens);
    const fullTokens = estimateMessagesTokens(this.messages);
    const cut = truncateToolResults(this.messages, { contextWindowTokens: budget.contextWindow });
    const cutTokens = cut.truncatedCount > 0 ? estimateMessagesTokens(cut.messages) : fullTokens;
    const route = chooseOverflowRoute({
      estimatedPromptTokens: fullTokens,
      promptBudgetTokens: available,
      toolResultSavingsTokens: fullTokens - cutTokens,
    });
    if (route === 'fits') {
      return {
        messages: [...this.messages],
        historyTokens: fullTokens,
        requiredTokens: fullTokens,
        route,
        omittedCount: 0,
        truncatedToolResults: 0,
      };
    }
    // Truncation is kept in history: the next call sends the same bytes, so prompt caches still hit.
    this.messages = cut.messages;
    const fitted = fitNewestTurns(this.messages, available);
    return {
      messages: fitted.messages,
      historyTokens: estimateMessagesTokens(fitted.messages),
      requiredTokens: fullTokens,
      route,
      omittedCount: fitted.omittedCount,
      truncatedToolResults: cut.truncatedCount,
    };
  }

  async compact(request: { reason: CompactionOutcome['reason']; signal?: AbortSignal }): Promise<CompactionOutcome> {
    const { deps } = this;
    const outcome = await compactSession(this.messages, deps, request);
    if (outcome.status === 'compacted') {
      this.messages = outcome.messages;
      deps.log.info('compacted history', {
        sessionKey: deps.sessionKey,
        reason: outcome.reason,
        compacted: outcome.compactedCount,
        reinserted: outcome.reinserted.length,
      });
    } else if (outcome.status === 'failed') {
      deps.log.warn('compaction failed; keeping history, will retry', {
        sessionKey: deps.sessionKey,
        error: outcome.error,
      });
    }
    return outcome;
  }

  async maintain(): Promise<MaintenanceReport> {
    if (this.lastContextWindow === undefined) return { changed: false, detail: 'no call assembled yet' };
    const cut = truncateToolResults(this.messages, { contextWindowTokens: this.lastContextWindow });
    if (cut.truncatedCount === 0) return { changed: false, detail: 'nothing to shrink' };
    this.messages = cut.messages;
    return { changed: true, detail: `truncated ${cut.truncatedCount} tool result(s), ${cut.savedChars} chars` };
  }

  async prepareSubagentSpawn(request: { childSessionKey: string; task: string }): Promise<SubagentSeed> {
    // A child gets its task, not our history: small prompts, and no leaking of unrelated context.
    const lastUser = [...this.messages].reverse().find((m) => m.kind === 'user');
    const context =
      lastUser && lastUser.kind === 'user' ? `\nThe parent was asked: ${lastUser.text.slice(0, 500)}` : '';
    return {
      messages: [
        {
          kind: 'notification',
          id: this.deps.newId(),
          ts: this.deps.clock.now(),
          text: `You are a subagent (${request.childSessionKey}) working for another session.${context}`,
        },
      ],
      bootstrapSessionKind: 'subagent',
    };
  }

  async onSubagentEnded(result: SubagentEnded): Promise<void> {
    this.messages.push(subagentEndedNotice(result, this.deps));
  }
}

export function validateBudget(budget: ContextBudget): void {
  // A bounded budget's fixedTokens is counted on first read: its bound is checked instead.
  const fixedKey = budget.fixedTokensBound === undefined ? 'fixedTokens' : 'fixedTokensBound';
  for (const key of ['promptTokens', 'contextWindow', fixedKey] as const) {
    const value = budget[key];
    if (value === undefined || !Number.isFinite(value) || value < 0)
      throw new RangeError(`budget.${key} must be a non-negative number, got ${String(value)}`);
  }
  if (budget.contextWindow === 0) throw new RangeError('budget.contextWindow must be positive');
}

export const linearContextEngineFactory: ContextEngineFactory = {
  id: LINEAR_CONTEXT_ENGINE_ID,
  createEngine: (deps) => new LinearContextEngine(deps),
};
