import { watch } from 'node:fs';
import type { Clock } from '../base/clock.js';
import { type Disposable, toDisposable } from '../base/disposable.js';
import { isMemoryPath } from './memory-files.js';

/** Something that reports changed workspace-relative paths; injectable so tests drive it by hand. */
export type WatchSource = (onChange: (relativePath: string) => void) => Disposable;

/** fs.watch on the workspace, recursive (Linux supports it from Node 20). */
export function nodeWatchSource(workspaceDir: string): WatchSource {
  return (onChange) => {
    const watcher = watch(workspaceDir, { recursive: true }, (_event, name) => {
      if (name) onChange(String(name).split('\\').join('/'));
    });
    watcher.on('error', () => undefined);
    return toDisposable(() => watcher.close());
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

/** One watcher shared by several listeners (one recursive fs.watch per workspace, not one per use). */
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
