import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type {
  AuthProfileManager,
  FailoverError,
  FailoverReason,
  ModelCatalog,
  ModelFactory,
} from '../../providers/index.js';
import type { OnDemandTools, ToolContext, ToolDefinition } from '../../tools/tool.js';
import type { AgentLoopHooks } from '../loop/agent-loop.js';
import type { AgentLoopEvent } from '../loop/loop-events.js';
import type { AgentMessage, Usage } from '../messages.js';

/** Hooks the context engine supplies to the runner (see agent/context/run-context-hooks.ts). */
export interface RunnerContextHooks {
  /** Summarise history; resolves with `status: 'compacted'` when it freed room. May throw when nothing more fits. */
  compact?(reason: 'timeout' | 'overflow'): Promise<{ status: string }>;
  /** Cut oversized tool results in history once; returns how many were cut. */
  truncateToolResults?(): Promise<number>;
  /** Fraction of the context window the last call used (0..1); default: last usage / window. */
  contextUsage?(): number;
}

export type RunnerEvent =
  | AgentLoopEvent
  | { type: 'attempt'; model: string; profileId?: string; iteration: number }
  | { type: 'retry'; model: string; profileId?: string; reason: FailoverReason; waitMs: number }
  | { type: 'fallback'; from: string; to: string; reason: FailoverReason };

export interface TurnRequest {
  /** Primary model first, then fallbacks (`provider/model`). */
  models: readonly string[];
  preferredProfile?: string;
  system?: string;
  /** The conversation the model should see, ending with the new user message. */
  history: readonly AgentMessage[];
  tools: readonly ToolDefinition[];
  /** Tools found and loaded on demand (tools/catalogue), sent after `tools`. */
  onDemand?: OnDemandTools;
  toolContext: Omit<ToolContext, 'signal'>;
  hooks?: AgentLoopHooks & RunnerContextHooks;
  signal: AbortSignal;
  /** Per-attempt limit; expiry with ≥ 65% context used compacts and retries. */
  timeoutMs?: number;
  /** A model the user switched to mid-turn; honoured only before anything visible happened. */
  liveModel?(): string | undefined;
  onEvent(event: RunnerEvent): void;
}

export type TurnStatus = 'ok' | 'aborted' | 'error';

export interface TurnOutcome {
  status: TurnStatus;
  /** Messages to append to the transcript (assistant text, tool calls and results), partial ones marked. */
  messages: AgentMessage[];
  usage: Usage;
  model?: string;
  profileId?: string;
  stopReason: string;
  /** Set when status is 'error': a FailoverError for provider failures, another Error for config problems. */
  error?: Error;
}

export interface RunnerDeps {
  models: ModelFactory;
  catalog: ModelCatalog;
  auth: AuthProfileManager;
  clock: Clock;
  log: Logger;
  newId(): string;
  /** Longest wait for a cooldown or retry-after before giving up on a model (default 30 s). */
  maxWaitMs?: number;
}

/** Thrown inside a model run to hand over to the next model in the list. */
export interface ModelRunFailure {
  failover: FailoverError;
}

/** Share of the context window used at which a timeout triggers compaction (ARCHITECTURE.md). */
export const timeoutCompactionUsage = 0.65;
export const maxOverflowCompactions = 3;
