import { existsSync, mkdirSync, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../base/clock.js';
import { type Disposable, DisposableStore, toDisposable } from '../../base/disposable.js';
import type { WatchSource } from '../memory-watcher.js';
import { type DreamRunView, readDreamRunFile } from './dream-run.js';

/** A scope's Dreaming state folder, relative to the workspace: `memory/.dreams` or `users/<id>/memory/.dreams`. */
const STATE_DIR = /^(?:users\/([^/]+)\/)?memory\/\.dreams(?:\/|$)/;

/**
 * Runs made by another process (`hearth memory promote` while the app is open) write only their
 * run file; this turns its changes into the same progress a run in this process tells. Runs of
 * this process are skipped: they tell their progress themselves.
 *
 * Each scope's state folder gets its own (non-recursive) watch: Node 20's recursive watch on
 * Linux follows a file's inode, so it goes quiet after the first rename over `run.json`. The
 * workspace's recursive watch (`source`) only finds state folders made later (a new person).
 */
export function watchDreamRuns(options: {
  source: WatchSource;
  workspaceDir: string;
  pid: number;
  /** `userId` for a person's own memory (per-user mode), undefined for the agent's. */
  onRun(userId: string | undefined, run: DreamRunView): void;
}): Disposable {
  const store = new DisposableStore();
  const watched = new Set<string>();
  // The last state told per scope: one write can be reported several times.
  const told = new Map<string, string>();
  let disposed = false;

  const read = (userId: string | undefined) => {
    const root = userId ? join('users', userId) : '';
    void readDreamRunFile(join(options.workspaceDir, root, 'memory', '.dreams', 'run.json')).then((file) => {
      if (disposed || !file || file.pid === options.pid) return;
      const state = JSON.stringify(file.run);
      if (told.get(root) === state) return;
      told.set(root, state);
      options.onRun(userId, file.run);
    });
  };
  /** True when the folder was not watched before. */
  const attach = (userId: string | undefined): boolean => {
    const dir = join(options.workspaceDir, userId ? join('users', userId) : '', 'memory', '.dreams');
    if (watched.has(dir) || disposed) return false;
    try {
      const watcher = watch(dir, (_event, name) => {
        if (String(name) === 'run.json') read(userId);
      });
      watcher.on('error', () => undefined);
      watched.add(dir);
      store.add(toDisposable(() => watcher.close()));
      return true;
    } catch {
      // Gone again (or never made): the workspace watch attaches it when it appears.
      return false;
    }
  };

  // The agent's own state folder always (made now, so a first run is seen), and each person's that exists.
  mkdirSync(join(options.workspaceDir, 'memory', '.dreams'), { recursive: true });
  attach(undefined);
  const users = join(options.workspaceDir, 'users');
  if (existsSync(users))
    for (const entry of readdirSync(users, { withFileTypes: true }))
      if (entry.isDirectory() && existsSync(join(users, entry.name, 'memory', '.dreams'))) attach(entry.name);
  store.add(
    options.source((path) => {
      const match = STATE_DIR.exec(path);
      // A new folder's run file may have been written before its own watch began.
      if (match && attach(match[1])) read(match[1]);
    }),
  );
  return toDisposable(() => {
    disposed = true;
    store.dispose();
  });
}

/**
 * A run that stops progressing tells nothing more: this turns its silence into a `stalled` view.
 * Each running run seen (this process's or another's) arms a timer for when its heartbeat goes
 * stale; when it fires and no newer state came meanwhile, the scope's run is read again (judged
 * by its heartbeat and process) and told when it is stalled now, else watched on.
 */
export class DreamStallWatch implements Disposable {
  private readonly timers = new Map<string, Disposable>();
  private disposed = false;

  constructor(
    private readonly deps: {
      clock: Pick<Clock, 'now' | 'setTimeout'>;
      stallAfterMs: number;
      onStalled(key: string, run: DreamRunView): void;
    },
  ) {}

  /** A state of the scope `key`'s run; `read` reads the scope's run again (MemoryService.dreamRun). */
  seen(key: string, run: DreamRunView, read: () => Promise<DreamRunView | undefined>): void {
    this.timers.get(key)?.dispose();
    this.timers.delete(key);
    if (this.disposed || run.state !== 'running') return;
    const due = (run.updatedAt ?? run.startedAt) + this.deps.stallAfterMs + 1 - this.deps.clock.now();
    const timer = this.deps.clock.setTimeout(
      () => {
        this.timers.delete(key);
        void read()
          .then((now) => {
            if (this.disposed || !now || now.id !== run.id || this.timers.has(key)) return;
            if (now.state === 'stalled') this.deps.onStalled(key, now);
            else this.seen(key, now, read);
          })
          .catch(() => undefined);
      },
      Math.max(0, due),
    );
    this.timers.set(key, timer);
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers.values()) timer.dispose();
    this.timers.clear();
  }
}
