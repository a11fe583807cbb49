import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../base/clock.js';
import type { DreamPhaseName, DreamPhaseProgress, DreamRunView } from '../../protocol/methods/dreams.js';
import { clearDreamLock } from './dream-lock.js';

export type { DreamPhaseName, DreamPhaseProgress, DreamRunView };
export type DreamOrigin = DreamRunView['origin'];

/** The phases every run goes through, in order. */
export const DREAM_PHASES: readonly DreamPhaseName[] = ['ingest', 'light', 'rem', 'deep', 'write'];

/** How often a run's heartbeat (`updatedAt` in run.json) is written while it waits on a long call. */
export const DREAM_BEAT_MS = 30_000;
/** A running run whose heartbeat is older than this, its process alive, reads as stalled. */
export const DREAM_STALL_MS = 5 * 60_000;
/**
 * A call the run waits on (a model, an embedder) keeps the heartbeat going this long at most: one
 * that never returns then stops beating, so the run reads as stalled instead of running forever.
 */
export const DREAM_KEEPALIVE_MAX_MS = 10 * 60_000;

/** What a run tells as it goes; every method is cheap and never throws. */
export interface DreamProgress {
  start(phase: DreamPhaseName, total?: number): void;
  step(phase: DreamPhaseName, done: number): void;
  end(phase: DreamPhaseName): void;
  /** The phase has nothing to do in this run (a run that finds nothing to promote writes nothing). */
  skip(phase: DreamPhaseName): void;
  /** The phase failed but the run goes on without it (ingest: the conversations could not be read). */
  failPhase(phase: DreamPhaseName, error: unknown): void;
  /** Keeps the heartbeat going while `work` (a model or embedder call) runs, for DREAM_KEEPALIVE_MAX_MS at most. */
  waitFor<T>(work: Promise<T>): Promise<T>;
}

/** A run that was cleared as stalled while it slept: it stops at its next phase instead of writing. */
export class DreamRunClearedError extends Error {
  constructor() {
    super('this Dreaming run was cleared as stalled while it was not progressing; it stopped without writing more');
    this.name = 'DreamRunClearedError';
  }
}

/** How a run reports: who started it, and where each change goes (the gateway's `dreams.changed`). */
export interface DreamRunReporting {
  origin: DreamOrigin;
  onChange(run: DreamRunView): void;
}

const FILE = 'run.json';

interface RunFile {
  version: 1;
  /** The process running it: a `running` run whose process is gone was interrupted. */
  pid: number;
  run: DreamRunView;
}

/**
 * One run's progress, told to `onChange` and kept in `memory/.dreams/run.json` so any process
 * (the gateway, `hearth memory promote`, a reloaded view) can read the run going now. Only the
 * lock's holder writes the file, so two processes never write it at once.
 */
export class DreamRunTracker implements DreamProgress {
  readonly view: DreamRunView;
  private writing: Promise<void> | undefined;
  private dirty = false;
  /** Last count told per phase, so a thousand files make tens of events, not a thousand. */
  private readonly told = new Map<DreamPhaseName, number>();
  private wroteOnce = false;
  private clearedSeen = false;

  constructor(
    private readonly deps: {
      stateDir: string;
      pid: number;
      now(): number;
      /** For the heartbeat during a long call (the injected clock); without it only steps beat. */
      timers?: Pick<Clock, 'setInterval'>;
      mode: DreamRunView['mode'];
      reporting: DreamRunReporting;
    },
  ) {
    const now = deps.now();
    this.view = {
      id: randomUUID(),
      mode: deps.mode,
      origin: deps.reporting.origin,
      state: 'running',
      startedAt: now,
      updatedAt: now,
      phases: DREAM_PHASES.map((name) => ({ name, state: 'waiting' })),
    };
    this.changed();
  }

  /**
   * Someone cleared this run as stalled (dreams.clearStalled) while it was not progressing: the
   * run file names it cleared, or already another run. Known from the tracker's next write.
   */
  get cleared(): boolean {
    return this.clearedSeen;
  }

  start(phase: DreamPhaseName, total?: number): void {
    this.update(phase, { state: 'running', done: 0, ...(total === undefined ? {} : { total }) });
  }

  step(phase: DreamPhaseName, done: number): void {
    const entry = this.phase(phase);
    entry.done = done;
    // A count is told when it moved by a twentieth of the total (or by 1 when there is no total).
    const every = entry.total ? Math.max(1, Math.floor(entry.total / 20)) : 1;
    // A slow phase still beats: a step half a minute after the last write is told anyway.
    const quiet = this.deps.now() - (this.view.updatedAt ?? 0) >= DREAM_BEAT_MS;
    if (done - (this.told.get(phase) ?? 0) < every && !quiet) return;
    this.told.set(phase, done);
    this.changed();
  }

  end(phase: DreamPhaseName): void {
    const entry = this.phase(phase);
    this.update(phase, { state: 'done', ...(entry.total === undefined ? {} : { done: entry.total }) });
  }

  skip(phase: DreamPhaseName): void {
    this.update(phase, { state: 'skipped' });
  }

  failPhase(phase: DreamPhaseName, error: unknown): void {
    this.update(phase, { state: 'failed', error: error instanceof Error ? error.message : String(error) });
  }

  async waitFor<T>(work: Promise<T>): Promise<T> {
    const timers = this.deps.timers;
    if (!timers) return work;
    const until = this.deps.now() + DREAM_KEEPALIVE_MAX_MS;
    const beat = timers.setInterval(() => {
      if (this.deps.now() > until) beat.dispose();
      else this.changed();
    }, DREAM_BEAT_MS);
    try {
      return await work;
    } finally {
      beat.dispose();
    }
  }

  finish(result: NonNullable<DreamRunView['result']>): void {
    // A phase the run never reached (it stopped early with nothing to do) did not happen.
    for (const entry of this.view.phases) if (entry.state === 'waiting') entry.state = 'skipped';
    Object.assign(this.view, { state: 'done', endedAt: this.deps.now(), result });
    this.changed();
  }

  fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const going = this.view.phases.find((entry) => entry.state === 'running');
    if (going) Object.assign(going, { state: 'failed', error: message });
    Object.assign(this.view, { state: 'failed', endedAt: this.deps.now(), error: message });
    this.changed();
  }

  /** Reads the run file: false once someone cleared this run (it then stops telling and writing). */
  async stillOurs(): Promise<boolean> {
    await this.flush();
    if (!this.clearedSeen && this.wroteOnce) {
      const current = await readDreamRunFile(join(this.deps.stateDir, FILE));
      if (current && (current.run.id !== this.view.id || current.run.clearedAt !== undefined)) this.clearedSeen = true;
    }
    return !this.clearedSeen;
  }

  /** Resolves once the file holds the latest state (the run awaits it before releasing the lock). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private phase(name: DreamPhaseName): DreamPhaseProgress {
    return this.view.phases.find((entry) => entry.name === name)!;
  }

  private update(name: DreamPhaseName, patch: Partial<DreamPhaseProgress>): void {
    Object.assign(this.phase(name), patch);
    this.told.set(name, this.phase(name).done ?? 0);
    this.changed();
  }

  private changed(): void {
    if (this.clearedSeen) return;
    this.view.updatedAt = this.deps.now();
    try {
      this.deps.reporting.onChange(structuredClone(this.view));
    } catch {
      // A listener's failure is its own; the run goes on.
    }
    this.dirty = true;
    this.writing ??= this.write();
  }

  /** One write at a time; changes made meanwhile are written together by the next one. */
  private async write(): Promise<void> {
    try {
      while (this.dirty && !this.clearedSeen) {
        this.dirty = false;
        // Cleared while it slept: the file says so (or holds the next run by now); it is not ours to write.
        if (this.wroteOnce) {
          const current = await readDreamRunFile(join(this.deps.stateDir, FILE));
          if (current && (current.run.id !== this.view.id || current.run.clearedAt !== undefined)) {
            this.clearedSeen = true;
            break;
          }
        }
        const file: RunFile = { version: 1, pid: this.deps.pid, run: this.view };
        await writeRunFile(this.deps.stateDir, `${JSON.stringify(file)}\n`).catch(() => undefined);
        this.wroteOnce = true;
      }
    } finally {
      this.writing = undefined;
    }
  }
}

/**
 * Progress is read by other processes while it is written: a temp file renamed into place, so a
 * reader never sees half of it. No fsync: after a crash the run is reported interrupted anyway.
 */
async function writeRunFile(stateDir: string, text: string): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  const temp = join(stateDir, `.run-${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, join(stateDir, FILE));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** A run file as written (`pid` and the run), or undefined when there is none or it is not one we wrote. */
export async function readDreamRunFile(path: string): Promise<{ pid: number; run: DreamRunView } | undefined> {
  let file: Partial<RunFile>;
  try {
    file = JSON.parse(await readFile(path, 'utf8')) as Partial<RunFile>;
  } catch {
    return undefined;
  }
  const run = file.run;
  if (file.version !== 1 || typeof file.pid !== 'number' || !run || !Array.isArray(run.phases)) return undefined;
  return { pid: file.pid, run };
}

/** Who reads a run file, to judge what its `running` means (readDreamRun, the file watch). */
export interface DreamRunOwner {
  isAlive(pid: number): boolean;
  /** This process's pid and the runs it makes now. */
  pid: number;
  runsHere: ReadonlySet<string>;
  /** The clock, for the heartbeat; without it a run is never judged stalled. */
  now?(): number;
  stallAfterMs?: number;
}

/**
 * What a run file's run is now. A run still marked running whose process is gone (a crash, kill -9,
 * a restart) is reported as failed, interrupted, at the phase it had reached; one whose process
 * lives but whose heartbeat is older than the stall threshold is `stalled`, with that pid.
 */
export function judgeDreamRun(file: { pid: number; run: DreamRunView }, owner: DreamRunOwner): DreamRunView {
  const { pid, run } = file;
  if (run.state !== 'running') return run;
  const gone = pid === owner.pid ? !owner.runsHere.has(run.id) : !owner.isAlive(pid);
  if (gone) {
    const error = `interrupted: the process running it (pid ${pid}) ended before it finished`;
    const phases = run.phases.map((entry) =>
      entry.state === 'running' ? { ...entry, state: 'failed' as const, error } : entry,
    );
    return { ...run, phases, state: 'failed', error };
  }
  if (owner.now && owner.now() - lastBeat(run) > (owner.stallAfterMs ?? DREAM_STALL_MS))
    return { ...run, state: 'stalled', pid };
  return run;
}

/** A run's heartbeat; a file written before the heartbeat existed has only its start. */
const lastBeat = (run: DreamRunView) => run.updatedAt ?? run.startedAt;

/** The scope's run going now, or its latest one, as judged by judgeDreamRun. */
export async function readDreamRun(stateDir: string, owner: DreamRunOwner): Promise<DreamRunView | undefined> {
  const file = await readDreamRunFile(join(stateDir, FILE));
  return file && judgeDreamRun(file, owner);
}

/**
 * Ends a stalled run: its run file says it failed, cleared (with when it last progressed and its
 * pid), and the Dreaming lock its process holds is freed so a new run can start. Only a run that is
 * stalled right now: one that progresses (a fresh heartbeat), ended, or is not `runId` is refused
 * with why. Should the process wake up, its tracker sees the file and stops before writing more.
 */
export async function clearStalledDreamRun(
  stateDir: string,
  runId: string,
  owner: DreamRunOwner & { now(): number },
): Promise<DreamRunView> {
  const file = await readDreamRunFile(join(stateDir, FILE));
  if (!file) throw new Error('there is no Dreaming run to clear');
  if (file.run.id !== runId)
    throw new Error(`run ${runId} is not the current Dreaming run (${file.run.id} is): nothing was cleared`);
  const judged = judgeDreamRun(file, owner);
  if (judged.state !== 'stalled') {
    const stallAfter = owner.stallAfterMs ?? DREAM_STALL_MS;
    throw new Error(
      judged.state === 'running'
        ? `the run is progressing (last step ${Math.round((owner.now() - lastBeat(file.run)) / 1000)} s ago): only a run with no progress for ${Math.round(stallAfter / 60_000)} min can be cleared`
        : `the run already ended (${judged.state}): nothing to clear`,
    );
  }
  const now = owner.now();
  const error = `cleared: it stalled (pid ${file.pid} still running, no progress since ${new Date(lastBeat(file.run)).toISOString()})`;
  const run: DreamRunView = {
    ...file.run,
    state: 'failed',
    endedAt: now,
    clearedAt: now,
    error,
    phases: file.run.phases.map((entry) => (entry.state === 'running' ? { ...entry, state: 'failed', error } : entry)),
  };
  const text: RunFile = { version: 1, pid: file.pid, run };
  await writeRunFile(stateDir, `${JSON.stringify(text)}\n`);
  await clearDreamLock(stateDir, file.pid);
  return run;
}
