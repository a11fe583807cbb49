import type { Clock } from '../base/clock.js';
import { type Disposable, toDisposable } from '../base/disposable.js';

interface Timer {
  id: number;
  at: number;
  run: () => void;
  every?: number;
  handle: Disposable;
}

/** A clock tests advance by hand; timers fire in time order during advance(). */
export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(now: number): void;
  readonly pendingTimers: number;
}

export function createFakeClock(start = 1_700_000_000_000): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, Timer>();
  const schedule = (run: () => void, ms: number, every?: number) => {
    const id = nextId++;
    const handle = toDisposable(() => timers.delete(id));
    timers.set(id, { id, at: now + Math.max(0, ms), run, every, handle });
    return handle;
  };
  return {
    now: () => now,
    setTimeout: (run, ms) => schedule(run, ms),
    setInterval: (run, ms) => schedule(run, ms, Math.max(1, ms)),
    get pendingTimers() {
      return timers.size;
    },
    set(value) {
      now = value;
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.values()].filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!due) break;
        now = due.at;
        if (due.every) due.at += due.every;
        // A timeout that fired is done, as on the system clock: its handle counts as disposed.
        else due.handle.dispose();
        due.run();
      }
      now = target;
    },
  };
}
