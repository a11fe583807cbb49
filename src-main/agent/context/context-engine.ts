import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { AgentMessage, Usage } from '../messages.js';
import type { CompactionOutcome, CompactionReason, Summarizer } from './compaction.js';
import type { OverflowRoute } from './prompt-budget.js';

/**
 * The context-engine contract: one engine instance per session decides what history the
 * model sees each call. Engines are plugins (`registerContextEngine`), chosen per agent in
 * config (`agents.<id>.contextEngine`, default "linear"). Methods may be async because an
 * engine may keep an index on disk; none may throw for an ordinary oversize history —
 * they report a route and let the runner's policy compact.
 */
export interface ContextBudget {
  /** Tokens the whole prompt may use: `computePromptBudget(...).promptTokens`. */
  promptTokens: number;
  contextWindow: number;
  /**
   * Tokens spent outside history this call: system prompt (with bootstrap files) and tool schemas.
   * With `fixedTokensBound` set it may be counted on first read (the tokenizer loads then).
   */
  readonly fixedTokens: number;
  /** An upper bound of `fixedTokens` known without the tokenizer: a budget it fits needs no count. */
  readonly fixedTokensBound?: number;
}

export interface AssembledContext {
  messages: AgentMessage[];
  /** Estimated tokens of `messages` (safety margin included); may be counted on first read. */
  historyTokens: number;
  /** What the full history needed before the engine fitted it. */
  route: OverflowRoute;
  /** Estimated tokens of the full history, before any fitting; may be counted on first read. */
  requiredTokens: number;
  /** Messages of the history not sent this call (dropped to fit, or judged irrelevant). */
  omittedCount: number;
  truncatedToolResults: number;
}

export interface SubagentSeed {
  /** Messages the child starts with (before its task message). */
  messages: AgentMessage[];
  /** Child sessions load only the minimal bootstrap allowlist. */
  bootstrapSessionKind: 'subagent';
}

export interface SubagentEnded {
  childSessionKey: string;
  outcome: 'ok' | 'error' | 'aborted';
  /** The child's final answer or error, as the parent should read it. */
  summary: string;
}

/** What every engine tells the parent session when a subagent it spawned ends. */
export function subagentEndedNotice(
  result: SubagentEnded,
  deps: Pick<ContextEngineDeps, 'newId' | 'clock'>,
): AgentMessage {
  return {
    kind: 'notification',
    id: deps.newId(),
    ts: deps.clock.now(),
    text: `Subagent ${result.childSessionKey} ended (${result.outcome}): ${result.summary}`,
  };
}

export interface MaintenanceReport {
  changed: boolean;
  detail: string;
}

export interface ContextEngine {
  readonly id: string;
  /** Load the session's persisted history (transcript) once, before the first turn. */
  bootstrap(init: { messages: readonly AgentMessage[] }): Promise<void>;
  ingest(message: AgentMessage): Promise<void>;
  ingestBatch(messages: readonly AgentMessage[]): Promise<void>;
  /** A turn finished: usage says how full the context really was. */
  afterTurn(turn: { usage?: Usage }): Promise<void>;
  /** History for the next call, within `budget.promptTokens - budget.fixedTokens`. */
  assemble(budget: ContextBudget): Promise<AssembledContext>;
  /** Summarise old history in place. A failed summary leaves history as it was. */
  compact(request: { reason: CompactionReason; signal?: AbortSignal }): Promise<CompactionOutcome>;
  /** Idle-time upkeep (e.g. shrinking old tool results); cheap and idempotent. */
  maintain(): Promise<MaintenanceReport>;
  prepareSubagentSpawn(request: { childSessionKey: string; task: string }): Promise<SubagentSeed>;
  onSubagentEnded(result: SubagentEnded): Promise<void>;
  /** The engine's working history (summaries in place), for persistence and inspection. */
  history(): readonly AgentMessage[];
}

/**
 * Where compaction's memory flush goes: the folder whose `memory/YYYY-MM-DD.md` receives the
 * durable facts, or why nothing is written (`skip`, logged at info).
 */
export type MemoryFlushTarget = { dir: string } | { skip: string };

/** What the host gives an engine factory for one session. */
export interface ContextEngineDeps {
  agentId: string;
  sessionKey: string;
  /** The agent's workspace: unless `memoryFlushTarget` says otherwise, compaction flushes to `memory/YYYY-MM-DD.md` there. */
  workspaceDir: string;
  summarizer: Summarizer;
  clock: Clock;
  newId: () => string;
  log: Logger;
  /** User turns kept verbatim by compaction (default 4). */
  keepRecentTurns?: number;
  /** Flush durable facts before compacting (default true). */
  flushMemory?: boolean;
  /**
   * Asked at each compaction: where this session's durable facts belong. The host knows whose
   * memory a session feeds (per-user memory: the person's `users/<id>/`; a group chat: nobody),
   * so an engine never guesses it. Absent: `workspaceDir`.
   */
  memoryFlushTarget?(): MemoryFlushTarget;
}

/** The service a context-engine plugin contributes (`ContextEngineService` in the plugin SDK). */
export interface ContextEngineFactory {
  readonly id: string;
  createEngine(deps: ContextEngineDeps): ContextEngine;
}
