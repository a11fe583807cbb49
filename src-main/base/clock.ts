import { type Disposable, toDisposable } from './disposable.js';

/** Time comes in as a parameter so tests can drive it; nothing reads Date.now() directly. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): Disposable;
  setInterval(run: () => void, ms: number): Disposable;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(run, ms) {
    const handle = setTimeout(run, ms);
    return toDisposable(() => clearTimeout(handle));
  },
  setInterval(run, ms) {
    const handle = setInterval(run, ms);
    return toDisposable(() => clearInterval(handle));
  },
};
