import {
  type AgentMessage,
  type AssembledContext,
  type CompactionOutcome,
  type CompactionReason,
  type ContextBudget,
  type ContextEngine,
  type ContextEngineDeps,
  type ContextEngineFactory,
  chooseOverflowRoute,
  compactSession,
  estimateMessagesTokens,
  type MaintenanceReport,
  type SubagentEnded,
  type SubagentSeed,
  splitTurns,
  subagentEndedNotice,
} from '../../src-main/plugins/sdk/context.js';
import { bm25Scores } from './bm25.js';

export const LEXICAL_CONTEXT_ENGINE_ID = 'lexical';

export interface LexicalEngineOptions {
  /** Newest turns always sent, relevant or not (default 3). */
  recentTurns?: number;
  /** Older turns scoring below this are never sent (default: any positive score). */
  minScore?: number;
}

/**
 * A context engine that sends the last few turns plus only the older turns lexically relevant
 * to the current message (BM25 over the transcript). Long sessions then cost what the current
 * question needs, not what the whole conversation weighs.
 */
export class LexicalContextEngine implements ContextEngine {
  readonly id = LEXICAL_CONTEXT_ENGINE_ID;
  private messages: AgentMessage[] = [];

  constructor(
    private readonly deps: ContextEngineDeps,
    private readonly options: LexicalEngineOptions = {},
  ) {
    const recent = options.recentTurns ?? 3;
    if (!Number.isInteger(recent) || recent < 1)
      throw new RangeError(`recentTurns must be an integer ≥ 1, got ${String(recent)}`);
  }

  async bootstrap(init: { messages: readonly AgentMessage[] }): Promise<void> {
    this.messages = [...init.messages];
  }
  async ingest(message: AgentMessage): Promise<void> {
    this.messages.push(message);
  }
  async ingestBatch(messages: readonly AgentMessage[]): Promise<void> {
    this.messages.push(...messages);
  }
  async afterTurn(): Promise<void> {}
  history(): readonly AgentMessage[] {
    return this.messages;
  }

  async assemble(budget: ContextBudget): Promise<AssembledContext> {
    const available = Math.max(0, budget.promptTokens - budget.fixedTokens);
    const turns = splitTurns(this.messages);
    const summary = turns[0]?.[0]?.kind === 'compaction_summary' ? turns.shift() : undefined;
    const recentCount = Math.min(turns.length, this.options.recentTurns ?? 3);
    const recent = turns.slice(turns.length - recentCount);
    const older = turns.slice(0, turns.length - recentCount);

    const chosen = new Set<number>();
    let used = estimateMessagesTokens(recent.flat());
    const summaryTokens = summary ? estimateMessagesTokens(summary) : 0;
    const withSummary = summary !== undefined && used + summaryTokens <= available;
    if (withSummary) used += summaryTokens;

    const query = lastUserText(this.messages);
    const scores = bm25Scores(
      older.map((turn) => turn.map(textOf).join('\n')),
      query,
    );
    const ranked = scores
      .map((score, index) => ({ score, index }))
      .filter((entry) => entry.score > (this.options.minScore ?? 0))
      .sort((a, b) => b.score - a.score || b.index - a.index);
    for (const { index } of ranked) {
      const cost = estimateMessagesTokens(older[index] ?? []);
      if (used + cost > available) continue;
      chosen.add(index);
      used += cost;
    }
    const messages = [
      ...(withSummary && summary ? summary : []),
      ...older.flatMap((turn, index) => (chosen.has(index) ? turn : [])),
      ...recent.flat(),
    ];
    const historyTokens = estimateMessagesTokens(messages);
    return {
      messages,
      historyTokens,
      requiredTokens: estimateMessagesTokens(this.messages),
      // Only the recent turns are required; if even they do not fit, the runner must compact.
      route: chooseOverflowRoute({
        estimatedPromptTokens: historyTokens,
        promptBudgetTokens: available,
        toolResultSavingsTokens: 0,
      }),
      omittedCount: this.messages.length - messages.length,
      truncatedToolResults: 0,
    };
  }

  async compact(request: { reason: CompactionReason; signal?: AbortSignal }): Promise<CompactionOutcome> {
    const { deps } = this;
    const outcome = await compactSession(this.messages, deps, request);
    if (outcome.status === 'compacted') this.messages = outcome.messages;
    return outcome;
  }

  async maintain(): Promise<MaintenanceReport> {
    return { changed: false, detail: 'lexical engine keeps the transcript as is' };
  }

  async prepareSubagentSpawn(request: { childSessionKey: string; task: string }): Promise<SubagentSeed> {
    // The child gets the parent's turns relevant to its task, at most three.
    const turns = splitTurns(this.messages);
    const scores = bm25Scores(
      turns.map((turn) => turn.map(textOf).join('\n')),
      request.task,
    );
    const best = scores
      .map((score, index) => ({ score, index }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 3)
      .sort((a, b) => a.index - b.index);
    const context = best.map(({ index }) => (turns[index] ?? []).map(textOf).join('\n')).join('\n---\n');
    return {
      messages: context
        ? [
            {
              kind: 'notification',
              id: this.deps.newId(),
              ts: this.deps.clock.now(),
              text: `Relevant context from the parent session:\n${context}`,
            },
          ]
        : [],
      bootstrapSessionKind: 'subagent',
    };
  }

  async onSubagentEnded(result: SubagentEnded): Promise<void> {
    this.messages.push(subagentEndedNotice(result, this.deps));
  }
}

function lastUserText(messages: readonly AgentMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.kind === 'user') return message.text;
  }
  return '';
}

function textOf(message: AgentMessage): string {
  switch (message.kind) {
    case 'tool_call':
      return `${message.toolName} ${JSON.stringify(message.input)}`;
    case 'tool_result':
      return message.output;
    case 'compaction_summary':
      return message.summary;
    default:
      return message.text;
  }
}

export function createLexicalEngineFactory(options: LexicalEngineOptions = {}): ContextEngineFactory {
  return { id: LEXICAL_CONTEXT_ENGINE_ID, createEngine: (deps) => new LexicalContextEngine(deps, options) };
}
