import { type Dirent, type FSWatcher, readdirSync, statSync, type WatchListener, watch } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type Disposable, toDisposable } from '../base/disposable.js';
import { isMemoryPath } from './memory-files.js';

/** Something that reports changed workspace-relative paths; injectable so tests drive it by hand. */
export type WatchSource = (onChange: (relativePath: string) => void) => Disposable;

/**
 * Folders that are reported when they appear or go, but not descended into: version control and
 * packages (thousands of folders, none of them memory) and Dreaming's state, whose run file
 * `watchDreamRuns` watches itself.
 */
export const UNWATCHED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.dreams']);

/** The one fs call the source makes per folder; passed in so a test can see which watches are open. */
export type WatchFolder = (dir: string, listener: WatchListener<string>) => FSWatcher;

const watchFolder: WatchFolder = (dir, listener) => watch(dir, listener);

/**
 * fs.watch on the workspace. On Linux one plain watch per folder: Node 20's recursive watch there
 * follows each file's inode, so once a file is replaced by a rename over it (how vim, VS Code and
 * our own atomic writes save) it never reports that file again and the index goes stale after
 * the second save. Elsewhere (FSEvents, ReadDirectoryChangesW) the recursive watch is sound, and
 * per-folder handles on Windows would stop folders from being deleted.
 */
export function nodeWatchSource(
  workspaceDir: string,
  options: { platform?: NodeJS.Platform; watchFolder?: WatchFolder } = {},
): WatchSource {
  if ((options.platform ?? process.platform) === 'linux') return folderWatchSource(workspaceDir, options.watchFolder);
  return (onChange) => {
    const watcher = watch(workspaceDir, { recursive: true }, (_event, name) => {
      if (name) onChange(String(name).split('\\').join('/'));
    });
    watcher.on('error', () => undefined);
    return toDisposable(() => watcher.close());
  };
}

function folderWatchSource(workspaceDir: string, watchDir: WatchFolder = watchFolder): WatchSource {
  return (onChange) => {
    // Workspace-relative folder ('' for the workspace itself) → its watch.
    const watches = new Map<string, FSWatcher>();
    let closed = false;

    const release = (folder: string) => {
      for (const [path, watcher] of watches)
        if (folder === '' || path === folder || path.startsWith(`${folder}/`)) {
          watches.delete(path);
          watcher.close();
        }
    };
    const isFolder = (path: string) => {
      try {
        return statSync(join(workspaceDir, path)).isDirectory();
      } catch {
        return false;
      }
    };
    /**
     * Watches `folder` and the folders under it. The listing comes after the watch begins, so
     * nothing falls between them; for a folder that appeared while running (`announce`) every
     * entry is reported, since a note can be written into it before its watch exists.
     */
    const attach = (folder: string, announce: boolean) => {
      if (closed || watches.has(folder)) return;
      const dir = folder ? join(workspaceDir, folder) : workspaceDir;
      let watcher: FSWatcher;
      try {
        watcher = watchDir(dir, (event, name) => changed(folder, event, name));
      } catch {
        return; // gone again already; its parent's watch reports that
      }
      // A watch on a folder that was removed may error rather than close; it is of no use then.
      watcher.on('error', () => release(folder));
      watches.set(folder, watcher);
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        release(folder);
        return;
      }
      for (const entry of entries) {
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        if (announce) onChange(path);
        if (entry.isDirectory() && !UNWATCHED_FOLDERS.has(entry.name)) attach(path, announce);
      }
    };
    const changed = (folder: string, event: string, name: string | null) => {
      if (closed || !name) return;
      const path = folder ? `${folder}/${name}` : name;
      // 'rename' is an entry made, removed or moved: a folder there gets a fresh watch (it may be
      // another folder under the same name), a folder gone gives its watches back. Before the
      // report, so whoever hears of a removal finds the watches already released.
      if (event === 'rename' && !UNWATCHED_FOLDERS.has(name)) {
        release(path);
        if (isFolder(path)) attach(path, true);
      }
      if (!closed) onChange(path);
    };

    attach('', false);
    return toDisposable(() => {
      closed = true;
      release('');
    });
  };
}

/**
 * Hand edits re-index after a quiet period: an editor saving five times in a second
 * costs one sync, and paths that are not memory files (reports, state) are ignored.
 */
export function watchMemoryFiles(options: {
  source: WatchSource;
  clock: Clock;
  debounceMs?: number;
  sync(): Promise<unknown>;
}): Disposable {
  let timer: Disposable | undefined;
  const subscription = options.source((path) => {
    if (!isMemoryPath(path)) return;
    timer?.dispose();
    timer = options.clock.setTimeout(() => {
      timer = undefined;
      void options.sync().catch(() => undefined);
    }, options.debounceMs ?? 1500);
  });
  return toDisposable(() => {
    timer?.dispose();
    subscription.dispose();
  });
}

/** One watcher shared by several listeners (one set of watches per workspace, not one per use). */
export function shareWatchSource(source: WatchSource): WatchSource & Disposable {
  const listeners = new Set<(path: string) => void>();
  const watching = source((path) => {
    for (const listener of listeners) listener(path);
  });
  const shared = (listener: (path: string) => void) => {
    listeners.add(listener);
    return toDisposable(() => listeners.delete(listener));
  };
  return Object.assign(shared, { dispose: () => watching.dispose() });
}
