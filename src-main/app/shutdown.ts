import type { Clock, Logger } from '../base/index.js';

/** The parts of Electron's `app` the quit sequence uses. */
export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  exit(exitCode?: number): void;
}

export interface CleanShutdownDeps {
  /** Everything to stop, in order: shell parts, then the host (gateway `shutdown`, flush, PTYs). */
  dispose(): Promise<void>;
  /** A hung dispose must not keep a quitting app alive forever. */
  timeoutMs: number;
  clock: Clock;
  logger: Logger;
}

export interface CleanShutdown {
  /** True from the first quit request on: windows stop hiding on close. */
  readonly quitting: boolean;
}

/**
 * Electron quits as soon as `before-quit` handlers return, so the first quit is
 * held (preventDefault), the host is disposed (the gateway tells clients it is
 * stopping, in-flight work finishes or is cancelled, logs flush, PTYs close) and
 * then the process exits. Further quit requests while that runs are held too.
 */
export function installCleanShutdown(app: QuitApp, deps: CleanShutdownDeps): CleanShutdown {
  let quitting = false;
  let done = false;
  app.on('before-quit', (event) => {
    if (done) return;
    event.preventDefault();
    if (quitting) return;
    quitting = true;
    const log = deps.logger.child({ component: 'shutdown' });
    log.info('quitting');
    let timer: { dispose(): void } | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = deps.clock.setTimeout(() => resolve('timeout'), deps.timeoutMs);
    });
    Promise.race([deps.dispose().then(() => 'ok' as const), timedOut])
      .then(
        (outcome) => {
          if (outcome === 'timeout') log.error('shutdown timed out; exiting anyway', { timeoutMs: deps.timeoutMs });
          return outcome === 'ok' ? 0 : 1;
        },
        (error: unknown) => {
          log.error('shutdown failed', { error: String(error) });
          return 1;
        },
      )
      .then((code) => {
        timer?.dispose();
        done = true;
        app.exit(code);
      });
  });
  return {
    get quitting() {
      return quitting;
    },
  };
}
