import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DisposableStore, toDisposable } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import {
  ensureNoDisposablesAreLeakedInTestFile,
  ensureNoDisposablesAreLeakedInTestSuite,
  trackDisposables,
} from './leak-check.js';

describe('the disposable leak check', () => {
  it('finds a listener left subscribed, and where it was made', () => {
    const emitter = new Emitter<number>();
    const tracking = trackDisposables();
    const subscription = emitter.event(() => {});
    const leaks = tracking.stop();
    expect(leaks.count).toBe(1);
    expect(leaks.stacks[0]).toContain('leak-check.test.ts');
    subscription.dispose();
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

describe('nested leak checks', () => {
  it("an outer tracker (the file's) hears of what an inner one (a test's) sees, and is put back", () => {
    const outer = trackDisposables();
    const inner = trackDisposables();
    const kept = new Emitter<number>().event(() => {});
    expect(inner.stop().count).toBe(1);
    const later = toDisposable(() => {});
    expect(outer.stop().count).toBe(2);
    kept.dispose();
    later.dispose();
  });

  it("disposing an emitter releases its listeners' subscriptions", () => {
    const tracking = trackDisposables();
    const emitter = new Emitter<number>();
    emitter.event(() => {});
    emitter.event(() => {});
    emitter.dispose();
    expect(tracking.stop().count).toBe(0);
  });
});

ensureNoDisposablesAreLeakedInTestFile();

describe('a fixture shared by a file', () => {
  let shared: DisposableStore;
  beforeAll(() => {
    shared = new DisposableStore();
    shared.add(toDisposable(() => {}));
  });
  // A file-level check (ensureNoDisposablesAreLeakedInTestFile) runs after this: a fixture disposed here is no leak.
  afterAll(() => shared.dispose());

  it('may live across the tests', () => {
    expect(shared.isDisposed).toBe(false);
  });
});
