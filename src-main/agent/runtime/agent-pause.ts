import { type Clock, type Disposable, Emitter, type Event, HearthError } from '../../base/index.js';

export interface PauseState {
  paused: boolean;
  /** When it was paused (ms), while paused. */
  since?: number;
}

/**
 * "Pause agent": while paused, no new turn starts — a chat message, a channel message, the
 * heartbeat or a cron run is refused with a message saying so (runs in flight finish). One
 * switch in the runtime, so every way a turn starts is covered by the same check.
 */
export interface AgentPause extends Disposable {
  readonly state: PauseState;
  pause(): PauseState;
  resume(): PauseState;
  readonly onDidChange: Event<PauseState>;
  /** Throws the refusal a paused agent gives; `what` names the turn ("cron run"). */
  assertRunning(what: string): void;
}

export const PAUSED_MESSAGE =
  'Hearth is paused: new messages, heartbeats and cron runs are not run until you resume it (tray → Resume agent, or agent.resume)';

export function createAgentPause(clock: Pick<Clock, 'now'>): AgentPause {
  let state: PauseState = { paused: false };
  const changed = new Emitter<PauseState>();
  const set = (next: PauseState) => {
    if (next.paused !== state.paused) {
      state = next;
      changed.fire(state);
    }
    return state;
  };
  return {
    get state() {
      return state;
    },
    pause: () => set({ paused: true, since: clock.now() }),
    resume: () => set({ paused: false }),
    onDidChange: changed.event,
    assertRunning(what) {
      if (!state.paused) return;
      throw new HearthError('unavailable', `${PAUSED_MESSAGE}. This ${what} was not started.`, {
        details: { reason: 'agent_paused', pausedSince: state.since },
        retryable: true,
      });
    },
    dispose: () => changed.dispose(),
  };
}
