import type { Disposable } from '../base/disposable.js';

/** Something that happened outside a turn that the next beat should look at. */
export interface HeartbeatEvent {
  source: 'channel' | 'file';
  /** What the heartbeat turn is told (`telegram: a message was not answered: …`, `file changed: notes/todo.md`). */
  detail: string;
}

/** Reports events as they happen; the heartbeat subscribes once. Listeners must not throw. */
export type HeartbeatEventSource = (onEvent: (event: HeartbeatEvent) => void) => Disposable;

/** Workspace-relative paths that changed, as memory's watcher reports them (memory/memory-watcher.ts). */
export type ChangedPathSource = (onChange: (relativePath: string) => void) => Disposable;

/** The most distinct events kept between two beats; past it the oldest go (the count still says how many). */
const INBOX_LIMIT = 50;

/**
 * Events collected between beats. The same detail twice is one event (an editor saving a file five
 * times is one change to look at), so a busy hour costs one heartbeat turn, not one per event.
 */
export interface HeartbeatInbox {
  add(event: HeartbeatEvent): void;
  /** How many distinct events wait (status shows it). */
  size(): number;
  /** The waiting events' details, oldest first; the inbox is empty afterwards. */
  take(): string[];
}

export function createHeartbeatInbox(limit = INBOX_LIMIT): HeartbeatInbox {
  const waiting = new Set<string>();
  return {
    add: (event) => {
      const detail = event.source === 'file' ? `file changed: ${event.detail}` : event.detail;
      waiting.delete(detail);
      waiting.add(detail);
      if (waiting.size > limit) waiting.delete(waiting.values().next().value!);
    },
    size: () => waiting.size,
    take: () => {
      const details = [...waiting];
      waiting.clear();
      return details;
    },
  };
}

/** `heartbeat.watch` entries: a file, or a folder (everything under it), relative to the agent's workspace. */
export function isWatchedPath(path: string, watch: readonly string[]): boolean {
  const normalized = path.replace(/^\.\//, '');
  return watch.some((entry) => {
    const base = entry.replace(/^\.\//, '').replace(/\/+$/, '');
    return base === '' || base === '.' ? true : normalized === base || normalized.startsWith(`${base}/`);
  });
}

/** The watched files as an event source: a changed path under `heartbeat.watch` is an event; others are ignored. */
export function watchedFilesSource(source: ChangedPathSource, watch: readonly string[]): HeartbeatEventSource {
  return (onEvent) =>
    source((path) => {
      if (isWatchedPath(path, watch)) onEvent({ source: 'file', detail: path.replace(/^\.\//, '') });
    });
}
