import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { flush } from '../testing/app/fake-electron.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { installCleanShutdown, type QuitApp } from './shutdown.js';

class FakeApp extends EventEmitter implements QuitApp {
  exits: (number | undefined)[] = [];
  exit(code?: number): void {
    this.exits.push(code);
  }
  /** Like app.quit(): fires before-quit; returns whether a handler held the quit. */
  requestQuit(): boolean {
    let held = false;
    this.emit('before-quit', {
      preventDefault: () => {
        held = true;
      },
    });
    return held;
  }
}

describe('clean shutdown', () => {
  it('holds the quit until the host is disposed, then exits 0', async () => {
    const app = new FakeApp();
    let finish: () => void = () => {};
    let disposeCalls = 0;
    const shutdown = installCleanShutdown(app, {
      dispose: () => {
        disposeCalls += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      timeoutMs: 10_000,
      clock: createFakeClock(),
      logger: createMemoryLogger(),
    });
    expect(shutdown.quitting).toBe(false);
    expect(app.requestQuit()).toBe(true);
    expect(shutdown.quitting).toBe(true);
    expect(app.requestQuit()).toBe(true);
    await flush();
    expect(app.exits).toEqual([]);
    finish();
    await flush();
    expect(disposeCalls).toBe(1);
    expect(app.exits).toEqual([0]);
    expect(app.requestQuit()).toBe(false);
  });

  it('exits 1 when disposing fails or hangs past the timeout', async () => {
    const failing = new FakeApp();
    installCleanShutdown(failing, {
      dispose: async () => {
        throw new Error('boom');
      },
      timeoutMs: 10_000,
      clock: createFakeClock(),
      logger: createMemoryLogger(),
    });
    failing.requestQuit();
    await flush();
    expect(failing.exits).toEqual([1]);

    const hanging = new FakeApp();
    const clock = createFakeClock();
    const logger = createMemoryLogger();
    installCleanShutdown(hanging, { dispose: () => new Promise(() => {}), timeoutMs: 10_000, clock, logger });
    hanging.requestQuit();
    clock.advance(10_000);
    await flush();
    expect(hanging.exits).toEqual([1]);
    expect(logger.entries.some((e) => e.message === 'shutdown timed out; exiting anyway')).toBe(true);
  });
});
