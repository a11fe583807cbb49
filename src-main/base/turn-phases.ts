import { channel } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

/**
 * Where a chat turn is, for the turn profile (`npm run bench -- turn`): each phase is published
 * on a diagnostics channel when it is reached. Nothing listens in the product, and a channel
 * without subscribers costs one property read per mark, so the marks stay in the shipped code
 * and the profile measures the code people run.
 */
export const TURN_PHASE_CHANNEL = 'hearth:turn-phase';

export type TurnPhase =
  /** chat.send's handler runs: the frame is parsed, the caller's scopes and the params checked. */
  | 'handler'
  /** The session's lane is ours (nothing else of this session runs). */
  | 'lane'
  /** The session is resolved and its history read. */
  | 'history'
  /** The user's message is on disk. */
  | 'user-durable'
  /** System prompt, core tools and on-demand tools are ready. */
  | 'prompt'
  /** Memory recall for the turn prefix is done. */
  | 'recall'
  /** The model request is handed to the AI SDK. */
  | 'model-request'
  /** The first part of the model's answer arrived (text, reasoning or a tool call). */
  | 'first-part'
  /** The model's stream of this step ended. */
  | 'stream-end'
  /** The model's turn ended (the tool loop, failover and the usage meter included). */
  | 'model-done'
  /** The reply is appended to the transcript. */
  | 'reply-appended'
  /** The reply is committed: the sessions' change announced, its fsync started in the background. */
  | 'reply-committed'
  /** The final event is published to the event bus. */
  | 'final';

export interface TurnPhaseMark {
  phase: TurnPhase;
  /** performance.now() when the phase was reached. */
  at: number;
}

const phases = channel(TURN_PHASE_CHANNEL);

export function markTurnPhase(phase: TurnPhase): void {
  if (phases.hasSubscribers) phases.publish({ phase, at: performance.now() } satisfies TurnPhaseMark);
}
