import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamRunView } from '../../protocol/methods/dreams.js';
import { createMemoryFixture, type MemoryFixture } from '../../testing/memory-test-fixture.js';
import { acquireDreamLock } from './dream-lock.js';
import { readDreamRun } from './dream-run.js';
import { runDreaming } from './dreaming.js';

// A real Dreaming run (real LanceDB store, real recall log in a temp home) tells its phases as it
// goes, in order, with counts, then its result; a failing phase names its error; the run file
// lets another process or a reloaded view read where the run is.

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
});

const DAY = 86_400_000;
const PID = 4242;

async function recalledNotes(f: MemoryFixture) {
  await f.write('MEMORY.md', '# Memory\n');
  await f.write('memory/2026-11-28.md', '- 09:00 [preference] Prefers oat milk in coffee\n');
  await f.write('memory/2026-11-29.md', '- 09:05 [fact] The office wifi is Hearth-5G\n');
  await f.engine.open();
  await f.engine.sync();
  const scope = f.engine.defaultScope();
  for (const query of ['oat milk coffee', 'how does the user take coffee', 'milk preference', 'coffee order']) {
    await f.engine.search(query, { scope });
    f.clock.advance(DAY);
  }
}

function deps(f: MemoryFixture, seen: DreamRunView[], origin: DreamRunView['origin'] = 'app') {
  return {
    workspaceDir: f.workspace,
    scope: f.engine.defaultScope(),
    embedder: f.engine.deps.embedder,
    now: () => f.clock.now(),
    lock: { pid: PID, now: () => f.clock.now(), isAlive: () => false },
    reporting: { origin, onChange: (run: DreamRunView) => seen.push(run) },
  };
}

/** Each told state as `phase:state done/total`, for the phase that changed (the first is the run's start). */
function transitions(seen: DreamRunView[]): string[] {
  const out: string[] = [];
  let before: DreamRunView | undefined;
  for (const run of seen) {
    for (const phase of run.phases) {
      const was = before?.phases.find((p) => p.name === phase.name);
      if (before && JSON.stringify(was) === JSON.stringify(phase)) continue;
      out.push(
        `${phase.name}:${phase.state}${phase.total === undefined ? '' : ` ${phase.done}/${phase.total}`}${phase.error ? ` (${phase.error})` : ''}`,
      );
    }
    if (run.state !== 'running') out.push(`run:${run.state}`);
    before = run;
  }
  return out;
}

const stateDir = (f: MemoryFixture) => join(f.workspace, 'memory', '.dreams');
const owner = (runsHere: string[] = []) => ({ pid: 1, isAlive: () => false, runsHere: new Set(runsHere) });

describe('a Dreaming run tells its progress', () => {
  it('phase by phase with counts, then the result; the run file holds the end state', async () => {
    fixture = await createMemoryFixture();
    await recalledNotes(fixture);
    const seen: DreamRunView[] = [];
    const summary = await runDreaming(deps(fixture, seen, 'schedule'), { mode: 'apply' });
    expect(summary.promoted).toEqual(['Prefers oat milk in coffee']);

    expect(transitions(seen)).toEqual([
      'light:waiting',
      'rem:waiting',
      'deep:waiting',
      'write:waiting',
      'light:running 0/2',
      'light:running 1/2',
      'light:running 2/2',
      'light:done 2/2',
      'rem:running 0/1',
      'rem:done 1/1',
      'deep:running 0/1',
      'deep:running 1/1',
      'deep:done 1/1',
      'write:running 0/5',
      'write:running 1/5',
      'write:running 2/5',
      'write:running 3/5',
      'write:running 4/5',
      'write:running 5/5',
      'write:done 5/5',
      'run:done',
    ]);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({
      mode: 'apply',
      origin: 'schedule',
      state: 'done',
      startedAt: fixture.clock.now(),
      endedAt: fixture.clock.now(),
      result: { day: '2026-12-04', notesSeen: 2, recalls: 4, candidates: 1, promoted: 1, queued: 0 },
    });
    expect(new Set(seen.map((run) => run.id)).size).toBe(1);
    // What a reloaded view or another process reads: the same end state.
    expect(await readDreamRun(stateDir(fixture), owner())).toEqual(last);

    // The next run is a new one, and one with nothing left to promote writes nothing: write is skipped.
    const again: DreamRunView[] = [];
    await runDreaming(deps(fixture, again), { mode: 'apply' });
    expect(again.at(-1)!.id).not.toBe(last.id);
    expect(again.at(-1)).toMatchObject({ state: 'done', origin: 'app', result: { promoted: 0 } });
    expect(again.at(-1)!.phases.map((p) => `${p.name}:${p.state}`)).toEqual([
      'light:done',
      'rem:done',
      'deep:done',
      'write:skipped',
    ]);
  });

  it('a phase that fails says so with its error, the run fails, and the lock is released', async () => {
    fixture = await createMemoryFixture();
    await recalledNotes(fixture);
    // A review queue that is not JSON: Deep cannot know what the person rejected, so it stops.
    await mkdir(stateDir(fixture), { recursive: true });
    await writeFile(join(stateDir(fixture), 'pending.json'), '{ not json');
    const seen: DreamRunView[] = [];
    await expect(runDreaming(deps(fixture, seen), { mode: 'review' })).rejects.toThrow(
      /pending\.json is not valid JSON/,
    );

    const last = seen.at(-1)!;
    expect(last.state).toBe('failed');
    expect(last.error).toMatch(/pending\.json is not valid JSON.*fix or delete it/);
    expect(last.phases.map((p) => `${p.name}:${p.state}`)).toEqual([
      'light:done',
      'rem:done',
      'deep:failed',
      'write:waiting',
    ]);
    expect(last.phases[2]!.error).toBe(last.error);
    expect(await readDreamRun(stateDir(fixture), owner())).toEqual(last);
    // Fixed, the next run goes through (the failed one let go of the lock).
    await writeFile(join(stateDir(fixture), 'pending.json'), '{"version":1,"candidates":[],"rejected":[]}');
    await expect(runDreaming(deps(fixture, []), { mode: 'review' })).resolves.toMatchObject({ mode: 'review' });
  });

  it('a refused run leaves the running one’s progress alone; a run whose process died reads as interrupted', async () => {
    fixture = await createMemoryFixture();
    await recalledNotes(fixture);
    const held = await acquireDreamLock(stateDir(fixture), { pid: 1111, now: () => 0, isAlive: () => true });
    const running = {
      version: 1,
      pid: 1111,
      run: {
        id: 'r-1',
        mode: 'apply',
        origin: 'cli',
        state: 'running',
        startedAt: 5,
        phases: [
          { name: 'light', state: 'done', done: 3, total: 3 },
          { name: 'rem', state: 'running', done: 0, total: 4 },
          { name: 'deep', state: 'waiting' },
          { name: 'write', state: 'waiting' },
        ],
      },
    };
    await writeFile(join(stateDir(fixture), 'run.json'), JSON.stringify(running));
    const seen: DreamRunView[] = [];
    await expect(
      runDreaming({ ...deps(fixture, seen), lock: { pid: PID, now: () => 0, isAlive: (pid) => pid === 1111 } }),
    ).rejects.toThrow(/already running/);
    expect(seen).toEqual([]);
    expect(JSON.parse(await readFile(join(stateDir(fixture), 'run.json'), 'utf8'))).toEqual(running);

    // While 1111 lives, it is the run going now; once it is gone, the run was interrupted in REM.
    expect(await readDreamRun(stateDir(fixture), { ...owner(), isAlive: (pid) => pid === 1111 })).toEqual(running.run);
    const interrupted = await readDreamRun(stateDir(fixture), owner());
    expect(interrupted).toMatchObject({ state: 'failed', error: expect.stringMatching(/^interrupted.*pid 1111/) });
    expect(interrupted!.phases[1]).toMatchObject({ name: 'rem', state: 'failed', error: interrupted!.error });
    // The same pid as ours but not one of our runs (a restart that got the pid back): interrupted too.
    expect(
      await readDreamRun(stateDir(fixture), { pid: 1111, isAlive: () => true, runsHere: new Set() }),
    ).toMatchObject({ state: 'failed' });
    expect(
      await readDreamRun(stateDir(fixture), { pid: 1111, isAlive: () => true, runsHere: new Set(['r-1']) }),
    ).toMatchObject({ state: 'running' });
    await held.release();
  });
});
