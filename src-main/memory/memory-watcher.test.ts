import { type FSWatcher, mkdtempSync, watch } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { nodeWatchSource, shareWatchSource, watchMemoryFiles } from './memory-watcher.js';

const subscriptions: Disposable[] = [];
const folders: string[] = [];
afterEach(async () => {
  // A failed test still gives its watches back (disposing twice is a no-op).
  for (const subscription of subscriptions.splice(0)) subscription.dispose();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/**
 * The real Linux source on a fresh workspace, with every folder watch it opens kept in `open`
 * (workspace-relative, '' for the workspace), and a way to wait for the n-th report of a path.
 */
function watchedWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-watcher-'));
  folders.push(dir);
  const open = new Set<string>();
  const counting = (folder: string, listener: Parameters<typeof watch>[1] & object): FSWatcher => {
    const watcher = watch(folder, listener);
    const path = relative(dir, folder);
    open.add(path);
    const close = watcher.close.bind(watcher);
    watcher.close = () => {
      open.delete(path);
      close();
    };
    return watcher;
  };
  const seen: string[] = [];
  const waiting = new Set<() => void>();
  const start = () => {
    const subscription = nodeWatchSource(dir, { platform: 'linux', watchFolder: counting })((path) => {
      seen.push(path);
      for (const check of waiting) check();
    });
    subscriptions.push(subscription);
    return subscription;
  };
  /** Resolves once `path` was reported `times` times in all (or `until` holds on a report of it). */
  const reported = (path: string, times: number, until: () => boolean = () => true) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (seen.filter((p) => p === path).length >= times && until()) {
          waiting.delete(check);
          resolve();
        }
      };
      waiting.add(check);
      check();
    });
  const count = (path: string) => seen.filter((p) => p === path).length;
  return { dir, open, start, reported, count };
}

/** How editors and writeFileAtomic save: the whole text to a temporary file, renamed over the note. */
async function saveByRename(file: string, text: string) {
  const temp = `${file}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
}

describe('the workspace watch (Linux, one watch per folder)', () => {
  it('reports a note saved three times by write-then-rename, every time', async () => {
    const ws = watchedWorkspace();
    await mkdir(join(ws.dir, 'memory'));
    const subscription = ws.start();
    const note = join(ws.dir, 'memory', '2026-12-03.md');
    for (let save = 1; save <= 3; save++) {
      const before = ws.count('memory/2026-12-03.md');
      await saveByRename(note, `save ${save}`);
      await ws.reported('memory/2026-12-03.md', before + 1);
    }
    subscription.dispose();
    expect(ws.open.size).toBe(0);
  });

  it('reports a direct write to a note that a rename replaced', async () => {
    const ws = watchedWorkspace();
    await mkdir(join(ws.dir, 'memory'));
    const subscription = ws.start();
    const note = join(ws.dir, 'memory', '2026-12-03.md');
    await saveByRename(note, 'first');
    await ws.reported('memory/2026-12-03.md', 1);
    await saveByRename(note, 'second');
    // Each rename is one report of the note; the temporary file's own reports are under its name.
    await ws.reported('memory/2026-12-03.md', 2);
    const before = ws.count('memory/2026-12-03.md');
    await writeFile(note, 'typed straight into the file');
    await ws.reported('memory/2026-12-03.md', before + 1);
    subscription.dispose();
  });

  it('reports a note in folders made after the start, and keeps watching them', async () => {
    const ws = watchedWorkspace();
    const subscription = ws.start();
    // Made and written at once: the note may exist before the new folder's watch does.
    await mkdir(join(ws.dir, 'users', 'ada', 'memory'), { recursive: true });
    const note = join(ws.dir, 'users', 'ada', 'memory', '2026-12-03.md');
    await writeFile(note, 'first');
    await ws.reported('users/ada/memory/2026-12-03.md', 1);
    expect(ws.open.has('users/ada/memory')).toBe(true);
    await saveByRename(join(ws.dir, 'users', 'ada', 'memory', '2026-12-04.md'), 'the next day');
    await ws.reported('users/ada/memory/2026-12-04.md', 1);
    subscription.dispose();
  });

  it('gives back the watches of a removed folder and of the folders under it', async () => {
    const ws = watchedWorkspace();
    await mkdir(join(ws.dir, 'notes', 'old'), { recursive: true });
    await writeFile(join(ws.dir, 'notes', 'old', 'a.md'), 'a');
    const subscription = ws.start();
    expect([...ws.open].sort()).toEqual(['', 'notes', 'notes/old']);
    await rm(join(ws.dir, 'notes'), { recursive: true });
    // Reported by the workspace's own watch; by then the folder's watches are released.
    await ws.reported('notes', 1);
    expect([...ws.open]).toEqual(['']);
    subscription.dispose();
    expect(ws.open.size).toBe(0);
  });

  it('does not descend into .git, node_modules or .dreams, but reports them appearing', async () => {
    const ws = watchedWorkspace();
    await mkdir(join(ws.dir, '.git', 'objects'), { recursive: true });
    await mkdir(join(ws.dir, 'node_modules', 'left-pad'), { recursive: true });
    await mkdir(join(ws.dir, 'memory'));
    const subscription = ws.start();
    await mkdir(join(ws.dir, 'memory', '.dreams'));
    // Dreaming's run watch attaches its own watch when it hears of this folder.
    await ws.reported('memory/.dreams', 1);
    expect([...ws.open].sort()).toEqual(['', 'memory']);
    subscription.dispose();
  });

  it('syncs the index for every save of a note through the shared source', async () => {
    const ws = watchedWorkspace();
    await mkdir(join(ws.dir, 'memory'));
    const source = shareWatchSource(nodeWatchSource(ws.dir, { platform: 'linux' }));
    subscriptions.push(source);
    let syncs = 0;
    let synced: () => void = () => {};
    const watching = watchMemoryFiles({
      source,
      clock: systemClock,
      debounceMs: 0,
      sync: async () => {
        syncs++;
        synced();
      },
    });
    subscriptions.push(watching);
    const note = join(ws.dir, 'memory', '2026-12-03.md');
    for (let save = 1; save <= 3; save++) {
      const done = new Promise<void>((resolve) => {
        synced = resolve;
      });
      await saveByRename(note, `save ${save}`);
      await done;
    }
    expect(syncs).toBeGreaterThanOrEqual(3);
    watching.dispose();
    source.dispose();
  });
});
