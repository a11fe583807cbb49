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
    // A timeout that fired is done: its handle counts as disposed (the leak check sees it go).
    const done = toDisposable(() => clearTimeout(handle));
    const handle = setTimeout(() => {
      done.dispose();
      run();
    }, ms);
    return done;
  },
  setInterval(run, ms) {
    const handle = setInterval(run, ms);
    return toDisposable(() => clearInterval(handle));
  },
};
