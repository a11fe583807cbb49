import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DreamPhaseName, DreamPhaseProgress, DreamRunView } from '../../protocol/methods/dreams.js';

export type { DreamPhaseName, DreamPhaseProgress, DreamRunView };
export type DreamOrigin = DreamRunView['origin'];

/** The phases every run goes through, in order. */
export const DREAM_PHASES: readonly DreamPhaseName[] = ['light', 'rem', 'deep', 'write'];

/** What a run tells as it goes; every method is cheap and never throws. */
export interface DreamProgress {
  start(phase: DreamPhaseName, total?: number): void;
  step(phase: DreamPhaseName, done: number): void;
  end(phase: DreamPhaseName): void;
  /** The phase has nothing to do in this run (a run that finds nothing to promote writes nothing). */
  skip(phase: DreamPhaseName): void;
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

  constructor(
    private readonly deps: {
      stateDir: string;
      pid: number;
      now(): number;
      mode: DreamRunView['mode'];
      reporting: DreamRunReporting;
    },
  ) {
    this.view = {
      id: randomUUID(),
      mode: deps.mode,
      origin: deps.reporting.origin,
      state: 'running',
      startedAt: deps.now(),
      phases: DREAM_PHASES.map((name) => ({ name, state: 'waiting' })),
    };
    this.changed();
  }

  start(phase: DreamPhaseName, total?: number): void {
    this.update(phase, { state: 'running', done: 0, ...(total === undefined ? {} : { total }) });
  }

  step(phase: DreamPhaseName, done: number): void {
    const entry = this.phase(phase);
    entry.done = done;
    // A count is told when it moved by a twentieth of the total (or by 1 when there is no total).
    const every = entry.total ? Math.max(1, Math.floor(entry.total / 20)) : 1;
    if (done - (this.told.get(phase) ?? 0) < every) return;
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
      while (this.dirty) {
        this.dirty = false;
        const file: RunFile = { version: 1, pid: this.deps.pid, run: this.view };
        await writeRunFile(this.deps.stateDir, `${JSON.stringify(file)}\n`).catch(() => undefined);
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

/**
 * The scope's run going now, or its latest one. A run still marked running whose process is gone
 * (a crash, kill -9, a restart) is reported as failed, interrupted, at the phase it had reached.
 */
export async function readDreamRun(
  stateDir: string,
  owner: { isAlive(pid: number): boolean; pid: number; runsHere: ReadonlySet<string> },
): Promise<DreamRunView | undefined> {
  const file = await readDreamRunFile(join(stateDir, FILE));
  if (!file) return undefined;
  const { pid, run } = file;
  if (run.state !== 'running') return run;
  const gone = pid === owner.pid ? !owner.runsHere.has(run.id) : !owner.isAlive(pid);
  if (!gone) return run;
  const error = `interrupted: the process running it (pid ${pid}) ended before it finished`;
  const going = run.phases.find((entry) => entry.state === 'running');
  if (going) Object.assign(going, { state: 'failed', error });
  return { ...run, state: 'failed', error };
}
