import { type Clock, type Disposable, Emitter, type Event, errorMessage, HearthError } from '../../base/index.js';

export interface PauseState {
  paused: boolean;
  /** When it was paused (ms), while paused. */
  since?: number;
  /** What the person gave as the reason (`hearth agent pause --reason`), while paused. */
  reason?: string;
  /**
   * The saved pause could not be read at start (a damaged state/agent-pause.json): why. Hearth
   * then starts paused, since running a paused agent is the worse mistake; the file is left as
   * it is until the person pauses or resumes, which writes a good one.
   */
  problem?: string;
}

/**
 * "Pause agent": while paused, no new turn starts — a chat message, a channel message, the
 * heartbeat or a cron run is refused with a message saying so (runs in flight finish). One
 * switch in the runtime, so every way a turn starts is covered by the same check.
 */
export interface AgentPause extends Disposable {
  readonly state: PauseState;
  /** Takes effect at once; resolves once it is saved (a failed save rejects, the pause still holds). */
  pause(reason?: string): Promise<PauseState>;
  resume(): Promise<PauseState>;
  readonly onDidChange: Event<PauseState>;
  /** Throws the refusal a paused agent gives; `what` names the turn ("cron run"). */
  assertRunning(what: string): void;
}

/** Where a pause outlives a restart (agent-pause-file.ts); without one it lasts as long as the process. */
export interface PauseSaving {
  /** The state read at start. */
  initial: PauseState;
  save(state: PauseState): Promise<void>;
}

export const PAUSED_MESSAGE =
  'Hearth is paused: new messages, heartbeats and cron runs are not run until you resume it (tray → Resume agent, or `hearth agent resume`)';

const same = (a: PauseState, b: PauseState) =>
  a.paused === b.paused && a.since === b.since && a.reason === b.reason && a.problem === b.problem;

export function createAgentPause(clock: Pick<Clock, 'now'>, saving?: PauseSaving): AgentPause {
  let state: PauseState = saving?.initial ?? { paused: false };
  const changed = new Emitter<PauseState>();
  // Saves run one after another, so a quick pause-then-resume cannot land on disk in the other order.
  let saved: Promise<void> = Promise.resolve();
  const set = async (next: PauseState): Promise<PauseState> => {
    if (same(next, state)) return state;
    state = next;
    changed.fire(state);
    if (!saving) return state;
    const written = state;
    const write = saved.then(() => saving.save(written));
    saved = write.catch(() => undefined);
    try {
      await write;
    } catch (error) {
      const what = written.paused ? 'Paused' : 'Resumed';
      throw new HearthError(
        'internal',
        `${what} now, but it could not be saved (${errorMessage(error)}): after a restart Hearth will not remember it`,
        { cause: error },
      );
    }
    return state;
  };
  return {
    get state() {
      return state;
    },
    pause: (reason) => {
      const why = reason?.trim() || undefined;
      // Pausing again keeps the first time (the banner says "since"), and can change the reason.
      const since = state.paused && !state.problem ? (state.since ?? clock.now()) : clock.now();
      return set({ paused: true, since, ...(why ? { reason: why } : {}) });
    },
    resume: () => set({ paused: false }),
    onDidChange: changed.event,
    assertRunning(what) {
      if (!state.paused) return;
      const why = state.problem ? ` ${state.problem}.` : state.reason ? ` Reason given: ${state.reason}.` : '';
      throw new HearthError('unavailable', `${PAUSED_MESSAGE}.${why} This ${what} was not started.`, {
        details: { reason: 'agent_paused', pausedSince: state.since },
        retryable: true,
      });
    },
    dispose: () => changed.dispose(),
  };
}
