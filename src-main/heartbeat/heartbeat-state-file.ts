import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { HeartbeatLastResult } from '../protocol/methods/gateway.js';
import type { HeartbeatCounters } from './heartbeat-service.js';

const VERSION = 1;
const STATUSES = new Set(['quiet', 'inactive', 'ok', 'delivered', 'error']);

/**
 * `state/heartbeat.json`: the beat counters and the last result, so `status.heartbeat` says the
 * same after a restart. Read once at start (a few hundred bytes, before the first beat); a file
 * that cannot be read is named in `problem` and counting starts again from zero.
 */
export function readHeartbeatCounters(path: string): { counters?: HeartbeatCounters; problem?: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: `${path} could not be read (${String(error)}); the beat counters start from zero` };
  }
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    if (raw.version !== VERSION) throw new Error(`version ${JSON.stringify(raw.version)}, expected ${VERSION}`);
    const count = (key: string) => {
      const value = raw[key];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`${key} is not a count`);
      return value;
    };
    const counters: HeartbeatCounters = { turns: count('turns'), quietBeats: count('quietBeats') };
    if (typeof raw.lastBeatAtMs === 'number') counters.lastBeatAtMs = raw.lastBeatAtMs;
    const last = raw.lastResult as HeartbeatLastResult | undefined;
    if (last && STATUSES.has(last.status) && typeof last.atMs === 'number' && Array.isArray(last.reasons))
      counters.lastResult = last;
    return { counters };
  } catch (error) {
    return {
      problem: `${path} is not a heartbeat state file (${error instanceof Error ? error.message : String(error)}); the beat counters start from zero`,
    };
  }
}

/** Crash-safe (temp file, fsync, rename): a restart sees the old counters or the new ones, never half a file. */
export function writeHeartbeatCounters(path: string, counters: HeartbeatCounters): Promise<void> {
  const { turns, quietBeats, lastBeatAtMs, lastResult } = counters;
  return writeFileAtomic(
    path,
    `${JSON.stringify({ version: VERSION, turns, quietBeats, lastBeatAtMs, lastResult }, null, 2)}\n`,
  );
}
