import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamRunView } from '../../protocol/methods/dreams.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { createMemoryFixture, type MemoryFixture } from '../../testing/memory-test-fixture.js';
import type { Embedder } from '../embedders/embedder.js';
import { acquireDreamLock } from './dream-lock.js';
import {
  clearStalledDreamRun,
  DREAM_BEAT_MS,
  DREAM_KEEPALIVE_MAX_MS,
  DREAM_STALL_MS,
  readDreamRun,
  readDreamRunFile,
} from './dream-run.js';
import { DreamStallWatch } from './dream-run-watch.js';
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
      'ingest:waiting',
      'light:waiting',
      'rem:waiting',
      'deep:waiting',
      'write:waiting',
      // No conversations to file here (no ingest given): the phase says so.
      'ingest:skipped',
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
      'ingest:skipped',
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
      'ingest:skipped',
      'light:done',
      'rem:done',
      'deep:failed',
      'write:waiting',
    ]);
    expect(last.phases[3]!.error).toBe(last.error);
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

/** Resolves with the first told state that matches (the run tells every change to onChange). */
function waiter(seen: DreamRunView[]) {
  const waits: { match(run: DreamRunView): boolean; resolve(run: DreamRunView): void }[] = [];
  return {
    onChange(run: DreamRunView) {
      seen.push(run);
      for (const wait of waits.splice(0))
        if (wait.match(run)) wait.resolve(run);
        else waits.push(wait);
    },
    until(match: (run: DreamRunView) => boolean): Promise<DreamRunView> {
      const found = seen.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waits.push({ match, resolve }));
    },
  };
}

/** The run file once it says what `match` wants (the tracker writes after it tells; no sleeping, only turns of the loop). */
async function fileUntil(f: MemoryFixture, match: (run: DreamRunView) => boolean) {
  for (;;) {
    const file = await readDreamRunFile(join(stateDir(f), 'run.json'));
    if (file && match(file.run)) return file;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const phaseOf = (run: DreamRunView, name: string) => run.phases.find((p) => p.name === name)!;

describe('the ingest phase', () => {
  it('comes first, counts the conversations it reads, and Light reads what it filed', async () => {
    fixture = await createMemoryFixture();
    await recalledNotes(fixture);
    const f = fixture;
    const seen: DreamRunView[] = [];
    const summary = await runDreaming(
      {
        ...deps(f, seen),
        ingest: async (progress) => {
          progress.start(2);
          await f.write('memory/2026-12-04.md', '- 10:00 [fact] The car is parked on level 3\n');
          progress.step(1);
          await appendFile(join(f.workspace, 'memory/2026-12-04.md'), '- 10:01 [fact] Dinner is at 7\n');
          progress.step(2);
        },
      },
      { mode: 'apply' },
    );
    const told = transitions(seen);
    expect(told.slice(5, 10)).toEqual([
      'ingest:running 0/2',
      'ingest:running 1/2',
      'ingest:running 2/2',
      'ingest:done 2/2',
      'light:running 0/3',
    ]);
    // Light read the day's notes the ingest wrote.
    expect(summary.notesSeen).toBe(4);
    expect(seen.at(-1)!.phases[0]).toEqual({ name: 'ingest', state: 'done', done: 2, total: 2 });

    // A preview writes nothing: its ingest is skipped, never called.
    let called = false;
    const preview: DreamRunView[] = [];
    await runDreaming(
      {
        ...deps(f, preview),
        ingest: async () => {
          called = true;
        },
      },
      { mode: 'preview' },
    );
    expect(called).toBe(false);
    expect(phaseOf(preview.at(-1)!, 'ingest').state).toBe('skipped');
  });

  it('conversations that cannot be read fail the phase, not the run', async () => {
    fixture = await createMemoryFixture();
    await recalledNotes(fixture);
    const seen: DreamRunView[] = [];
    await runDreaming(
      {
        ...deps(fixture, seen),
        ingest: async (progress) => {
          progress.start(3);
          progress.step(1);
          throw new Error('sessions.json is not valid JSON');
        },
      },
      { mode: 'apply' },
    );
    const last = seen.at(-1)!;
    expect(last.state).toBe('done');
    expect(last.phases[0]).toEqual({
      name: 'ingest',
      state: 'failed',
      done: 1,
      total: 3,
      error: 'sessions.json is not valid JSON',
    });
    expect(phaseOf(last, 'light').state).toBe('done');
  });
});

describe('a run that stops progressing', () => {
  it('beats while it waits on a long call, reads as stalled once the beat stops, and only then can be cleared', async () => {
    fixture = await createMemoryFixture();
    await recalledNotes(fixture);
    const f = fixture;
    const memoryBefore = await readFile(join(f.workspace, 'MEMORY.md'), 'utf8');
    // REM's embedder call hangs until the test lets it go (a model that never answers).
    let letGo!: () => void;
    const hanging = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const base = f.engine.deps.embedder;
    const embedder: Embedder = { ...base, embed: async (texts) => hanging.then(() => base.embed(texts)) };
    const seen: DreamRunView[] = [];
    const told = waiter(seen);
    const running = runDreaming(
      {
        ...deps(f, seen),
        embedder,
        timers: f.clock,
        reporting: { origin: 'cli', onChange: (run) => told.onChange(run) },
      },
      { mode: 'apply' },
    );
    const inRem = await told.until((run) => phaseOf(run, 'rem').state === 'running');
    const owner = {
      pid: 1,
      isAlive: (pid: number) => pid === PID,
      runsHere: new Set<string>(),
      now: () => f.clock.now(),
    };
    await fileUntil(f, (run) => phaseOf(run, 'rem').state === 'running');

    // Waiting on the call, the heartbeat goes on every half minute: still running, and not clearable.
    const start = f.clock.now();
    f.clock.advance(DREAM_STALL_MS);
    await told.until((run) => run.updatedAt === start + DREAM_STALL_MS - (DREAM_STALL_MS % DREAM_BEAT_MS));
    await fileUntil(f, (run) => run.updatedAt! >= start + DREAM_STALL_MS - DREAM_BEAT_MS);
    expect(await readDreamRun(stateDir(f), owner)).toMatchObject({ id: inRem.id, state: 'running' });
    await expect(clearStalledDreamRun(stateDir(f), inRem.id, owner)).rejects.toThrow(
      /progressing.*only a run with no progress for 5 min/,
    );

    // A call that never returns stops beating after the keep-alive cap; past the stall threshold it is stalled.
    f.clock.advance(DREAM_KEEPALIVE_MAX_MS);
    const lastBeat = (await fileUntil(f, (run) => run.updatedAt! >= start + DREAM_KEEPALIVE_MAX_MS - DREAM_BEAT_MS)).run
      .updatedAt!;
    expect(lastBeat).toBeLessThanOrEqual(start + DREAM_KEEPALIVE_MAX_MS);
    f.clock.advance(DREAM_STALL_MS);
    expect((await readDreamRunFile(join(stateDir(f), 'run.json')))!.run.updatedAt).toBe(lastBeat);
    const stalled = await readDreamRun(stateDir(f), owner);
    expect(stalled).toMatchObject({ id: inRem.id, state: 'stalled', pid: PID, updatedAt: lastBeat });
    // Not the run asked for: refused, nothing changed.
    await expect(clearStalledDreamRun(stateDir(f), 'another-run', owner)).rejects.toThrow(
      /not the current Dreaming run/,
    );

    const cleared = await clearStalledDreamRun(stateDir(f), inRem.id, owner);
    expect(cleared).toMatchObject({ state: 'failed', clearedAt: f.clock.now() });
    expect(cleared.error).toMatch(
      new RegExp(
        `^cleared: it stalled \\(pid ${PID} still running, no progress since ${new Date(lastBeat).toISOString()}`,
      ),
    );
    expect(phaseOf(cleared, 'rem')).toMatchObject({ state: 'failed', error: cleared.error });
    expect(await readDreamRun(stateDir(f), owner)).toEqual(cleared);
    await expect(clearStalledDreamRun(stateDir(f), inRem.id, owner)).rejects.toThrow(/already ended \(failed\)/);
    // Its lock is free: a new run can start while the stalled process still lives.
    const next = await acquireDreamLock(stateDir(f), { pid: 5151, now: () => 0, isAlive: (pid) => pid === PID });

    // The stalled process wakes up: it sees it was cleared, stops before writing, and leaves the new run's lock alone.
    letGo();
    await expect(running).rejects.toThrow(/cleared as stalled/);
    expect(await readFile(join(f.workspace, 'MEMORY.md'), 'utf8')).toBe(memoryBefore);
    expect(await readDreamRun(stateDir(f), owner)).toEqual(cleared);
    expect(JSON.parse(await readFile(join(stateDir(f), 'dreaming.lock'), 'utf8'))).toMatchObject({ pid: 5151 });
    await next.release();
    await expect(stat(join(stateDir(f), 'dreaming.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('a run cleared while the diary model hung writes no diary entry when it wakes', async () => {
    fixture = await createMemoryFixture();
    await recalledNotes(fixture);
    const f = fixture;
    let letGo!: () => void;
    const hanging = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const seen: DreamRunView[] = [];
    const told = waiter(seen);
    const running = runDreaming(
      {
        ...deps(f, seen),
        timers: f.clock,
        writeDiary: async () => hanging.then(() => 'A late diary entry.'),
        reporting: { origin: 'cli', onChange: (run) => told.onChange(run) },
      },
      { mode: 'apply' },
    );
    const inWrite = await told.until((run) => phaseOf(run, 'write').done === 4);
    await fileUntil(f, (run) => phaseOf(run, 'write').done === 4);
    const owner = {
      pid: 1,
      isAlive: (pid: number) => pid === PID,
      runsHere: new Set<string>(),
      now: () => f.clock.now(),
    };
    const waitingSince = f.clock.now();
    f.clock.advance(DREAM_KEEPALIVE_MAX_MS + DREAM_STALL_MS + DREAM_BEAT_MS);
    // The last beat the capped keep-alive wrote has landed (nothing is on its way to the file any more).
    await fileUntil(f, (run) => run.updatedAt === waitingSince + DREAM_KEEPALIVE_MAX_MS);
    expect(await readDreamRun(stateDir(f), owner)).toMatchObject({ state: 'stalled' });
    await clearStalledDreamRun(stateDir(f), inWrite.id, owner);
    letGo();
    await expect(running).rejects.toThrow(/cleared as stalled/);
    expect(await readFile(join(f.workspace, 'DREAMS.md'), 'utf8').catch(() => '')).not.toContain('A late diary entry.');
  });

  it('the stall watch tells a silent run as stalled once its heartbeat is stale, not before', async () => {
    const clock = createFakeClock(1_000_000);
    const stalledTold: DreamRunView[] = [];
    let told!: () => void;
    const tellingStalled = new Promise<void>((resolve) => {
      told = resolve;
    });
    const watch = new DreamStallWatch({
      clock,
      stallAfterMs: DREAM_STALL_MS,
      onStalled: (_key, run) => {
        stalledTold.push(run);
        told();
      },
    });
    const run: DreamRunView = {
      id: 'r',
      mode: 'apply',
      origin: 'cli',
      state: 'running',
      startedAt: clock.now(),
      updatedAt: clock.now(),
      phases: [{ name: 'rem', state: 'running' }],
    };
    let reads = 0;
    const read = async (): Promise<DreamRunView> => {
      reads++;
      return clock.now() - run.updatedAt! > DREAM_STALL_MS ? { ...run, state: 'stalled', pid: 7 } : run;
    };
    watch.seen('main\0', run, read);
    // A newer beat before the threshold re-arms the watch: nothing is read or told at the old time.
    clock.advance(DREAM_STALL_MS - 1);
    run.updatedAt = clock.now();
    watch.seen('main\0', run, read);
    clock.advance(2);
    expect(reads).toBe(0);
    clock.advance(DREAM_STALL_MS);
    await tellingStalled;
    expect(reads).toBe(1);
    expect(stalledTold).toEqual([{ ...run, state: 'stalled', pid: 7 }]);
    // A run that ended is not watched.
    watch.seen('main\0', { ...run, state: 'done' }, read);
    expect(clock.pendingTimers).toBe(0);
    watch.dispose();
  });
});
