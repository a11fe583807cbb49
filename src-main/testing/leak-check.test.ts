import { describe, expect, it } from 'vitest';
import { DisposableStore, toDisposable } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import { ensureNoDisposablesAreLeakedInTestSuite, trackDisposables } from './leak-check.js';

describe('the disposable leak check', () => {
  it('finds a listener left subscribed, and where it was made', () => {
    const emitter = new Emitter<number>();
    const tracking = trackDisposables();
    emitter.event(() => {});
    const leaks = tracking.stop();
    expect(leaks.count).toBe(1);
    expect(leaks.stacks[0]).toContain('leak-check.test.ts');
  });

  it('counts nothing once everything is disposed, store children included', () => {
    const tracking = trackDisposables();
    const store = new DisposableStore();
    store.add(toDisposable(() => {}));
    store.add(new Emitter<void>().event(() => {}));
    store.dispose();
    expect(tracking.stop().count).toBe(0);
  });
});

describe('a suite under the leak check', () => {
  ensureNoDisposablesAreLeakedInTestSuite();

  it('passes a test that disposes what it made', () => {
    const store = new DisposableStore();
    store.add(toDisposable(() => {}));
    store.dispose();
  });
});

describe('a leaking test under the leak check', () => {
  ensureNoDisposablesAreLeakedInTestSuite();

  // `fails`: this test passes only because the suite-level check fails it for the leak.
  it.fails('fails for the listener it leaves subscribed', () => {
    new Emitter<number>().event(() => {});
  });
});
