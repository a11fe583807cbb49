import type { Logger } from '../../base/logger.js';
import type { UserMessage } from '../messages.js';
import type { RunnerEvent, TurnOutcome } from './runner-types.js';

/**
 * Something other than Hearth's model loop that answers a turn: an external agent CLI
 * (src-main/cli-backends) chosen by `agents.list[].engine`. It gets the person's message, not the
 * history: the engine keeps its own conversation (and is resumed by its own session id). It
 * reports the same runner events and returns the same outcome as the model loop, so the chat
 * events, the transcript, abort and the usage tag work unchanged.
 */
export interface TurnEngine {
  /** Shown where a run's model would be (lifecycle start, the final event). */
  readonly label: string;
  run(input: EngineTurnInput): Promise<TurnOutcome>;
}

export interface EngineTurnInput {
  agentId: string;
  sessionKey: string;
  /** The Hearth session (transcript) id: a reset starts a new one, and so a new engine session. */
  sessionId: string;
  message: UserMessage;
  workspaceDir: string;
  /** Aborts the turn: the engine stops its work (a CLI's whole process tree) and resolves `aborted`. */
  signal: AbortSignal;
  onEvent(event: RunnerEvent): void;
  log: Logger;
}
