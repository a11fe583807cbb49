import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../testing/fake-clock.js';
import { RunConflictError, type RunRecord, RunRegistry } from './run-registry.js';

function record(runId: string, status: RunRecord['status'], updatedAt: number): RunRecord {
  return {
    runId,
    sessionKey: 'agent:main:main',
    fingerprint: `fp-${runId}`,
    status,
    startedAt: updatedAt,
    updatedAt,
    text: '',
    controller: new AbortController(),
    done: Promise.resolve(),
  };
}

describe('RunRegistry (the chat.send dedupe store)', () => {
  it('expires finished runs 5 minutes after their last update, never active ones', () => {
    const clock = createFakeClock();
    const runs = new RunRegistry({ clock });
    runs.add(record('done', 'ok', clock.now()));
    runs.add(record('live', 'running', clock.now()));
    clock.advance(5 * 60_000 + 1);
    expect(runs.get('done')).toBeUndefined();
    expect(runs.get('live')).toBeDefined();
    runs.dispose();
  });

  it('keeps at most maxEntries, dropping the oldest finished first', () => {
    const clock = createFakeClock();
    const runs = new RunRegistry({ clock, maxEntries: 2 });
    const now = clock.now();
    runs.add(record('a', 'ok', now));
    runs.add(record('b', 'running', now + 1));
    runs.add(record('c', 'ok', now + 2));
    expect([runs.get('a'), runs.get('b'), runs.get('c')].map((r) => r?.runId)).toEqual([undefined, 'b', 'c']);
    runs.dispose();
  });

  it('throws a conflict for the same id with a different request', () => {
    const clock = createFakeClock();
    const runs = new RunRegistry({ clock });
    runs.add(record('x', 'ok', clock.now()));
    expect(runs.lookup('x', 'fp-x')?.runId).toBe('x');
    expect(() => runs.lookup('x', 'other')).toThrow(RunConflictError);
    expect(runs.lookup('y', 'any')).toBeUndefined();
    runs.dispose();
  });

  it('aborts active runs on dispose', () => {
    const runs = new RunRegistry({ clock: createFakeClock() });
    const live = record('live', 'running', 1);
    runs.add(live);
    runs.dispose();
    expect(live.controller.signal.aborted).toBe(true);
  });
});
