import { afterEach, beforeEach } from 'vitest';
import { type Disposable, setDisposableTracker } from '../base/disposable.js';

export interface LeakTracker {
  /** What was created since start() and not disposed, with where each was created. */
  stop(): { count: number; stacks: string[] };
}

/** Records every Disposable created (toDisposable, DisposableStore) until stop(). */
export function trackDisposables(): LeakTracker {
  const live = new Map<Disposable, string>();
  setDisposableTracker({
    created: (disposable) => live.set(disposable, new Error('created here').stack ?? ''),
    disposed: (disposable) => live.delete(disposable),
  });
  return {
    stop() {
      setDisposableTracker(undefined);
      return { count: live.size, stacks: [...live.values()] };
    },
  };
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
    if (leaks && leaks.count > 0) {
      throw new Error(
        `${leaks.count} disposable(s) leaked by this test; created at:\n${leaks.stacks.slice(0, 5).join('\n---\n')}`,
      );
    }
  });
}
