import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { AgentMessage } from '../transcript/index.js';
import { loadTranscript, repairTornTail } from './transcript-file.js';

/**
 * Parsed transcripts kept in memory (most recently used first), so paging a long
 * chat does not re-read the file per page. The store is the only writer in the
 * process and tells the cache about each append. Also remembers which files had
 * their tail checked, so the torn-tail repair runs once per file per process.
 * Callers serialize per path.
 */
export interface TranscriptCache {
  ensureRepaired(path: string): Promise<void>;
  messages(path: string): Promise<AgentMessage[]>;
  appended(path: string, messages: readonly AgentMessage[]): void;
  forget(path: string): void;
}

export function createTranscriptCache(deps: {
  log: Logger;
  clock: Pick<Clock, 'now'>;
  capacity: number;
}): TranscriptCache {
  const repaired = new Set<string>();
  const cache = new Map<string, AgentMessage[]>();

  async function ensureRepaired(path: string): Promise<void> {
    if (repaired.has(path)) return;
    await repairTornTail(path, deps.clock.now(), deps.log);
    repaired.add(path);
  }

  return {
    ensureRepaired,
    async messages(path) {
      const hit = cache.get(path);
      if (hit) {
        cache.delete(path);
        cache.set(path, hit);
        return hit;
      }
      await ensureRepaired(path);
      const { messages } = await loadTranscript(path, deps.log);
      cache.set(path, messages);
      while (cache.size > deps.capacity) cache.delete(cache.keys().next().value!);
      return messages;
    },
    appended(path, messages) {
      cache.get(path)?.push(...messages);
    },
    forget(path) {
      cache.delete(path);
      repaired.delete(path);
    },
  };
}
