import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type Disposable, setDisposableTracker } from '../base/disposable.js';

export interface Leaks {
  count: number;
  stacks: string[];
  /** The leaked disposables themselves (a check that reported them disposes them, so they are reported once). */
  leaked: Disposable[];
}

export interface LeakTracker {
  /** What was created since start() and not disposed, with where each was created. */
  stop(): Leaks;
}

/**
 * Records every Disposable created (toDisposable, DisposableStore, an Emitter's listeners) until
 * stop(). Trackers nest: an outer one (the whole file's) still hears of everything an inner one
 * (one test's) sees, and gets its place back on stop().
 */
export function trackDisposables(): LeakTracker {
  const live = new Map<Disposable, string>();
  const outer = setDisposableTracker({
    created: (disposable) => {
      live.set(disposable, new Error('created here').stack ?? '');
      outer?.created(disposable);
    },
    disposed: (disposable) => {
      live.delete(disposable);
      outer?.disposed(disposable);
    },
  });
  return {
    stop() {
      setDisposableTracker(outer);
      return { count: live.size, stacks: [...live.values()], leaked: [...live.keys()] };
    },
  };
}

function leakError(what: string, leaks: Leaks): Error {
  return new Error(
    `${leaks.count} disposable(s) leaked by ${what}; created at:\n${leaks.stacks.slice(0, 5).join('\n---\n')}`,
  );
}

/**
 * Call at the top of a describe block (VS Code's ensureNoDisposablesAreLeakedInTestSuite): each
 * test in it fails when it leaves a listener, timer or store undisposed, naming where it was made.
 */
export function ensureNoDisposablesAreLeakedInTestSuite(): void {
  let tracking: LeakTracker | undefined;
  beforeEach(() => {
    tracking = trackDisposables();
  });
  afterEach(() => {
    const leaks = tracking?.stop();
    tracking = undefined;
    if (!leaks || leaks.count === 0) return;
    // Reported here, so the file-level check does not report them again.
    for (const disposable of leaks.leaked) disposable.dispose();
    throw leakError('this test', leaks);
  });
}

/**
 * The whole test file's check (call once at the top of a file, or from a vitest `setupFiles` entry):
 * what the file's tests and hooks create must be disposed by the time its last `afterAll` ran,
 * so a fixture shared by the file's tests (a host booted once) may live across them, but not past
 * the file. What is created while the file's modules load (module-level singletons) is not counted.
 */
export function ensureNoDisposablesAreLeakedInTestFile(): void {
  let tracking: LeakTracker | undefined;
  beforeAll(() => {
    tracking = trackDisposables();
  });
  // Registered before the file's own hooks, and vitest runs after-hooks as a stack: this runs last.
  afterAll(() => {
    const leaks = tracking?.stop();
    tracking = undefined;
    if (leaks && leaks.count > 0) throw leakError('this test file', leaks);
  });
}
