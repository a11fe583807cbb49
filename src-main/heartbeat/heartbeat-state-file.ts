import { copyFileSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { HeartbeatLastResult } from '../protocol/methods/gateway.js';
import type { HeartbeatCounters } from './heartbeat-service.js';

const VERSION = 1;

// Typed by the interfaces they decode, so a field added to the counters or a beat's result without
// its schema breaks the build; `loose`, so keys a newer Hearth wrote do not refuse the file.
const lastResultSchema: z.ZodType<HeartbeatLastResult> = z.looseObject({
  status: z.enum(['quiet', 'inactive', 'ok', 'delivered', 'error']),
  atMs: z.number(),
  reasons: z.array(z.string()),
  summary: z.string().optional(),
  sessionKey: z.string().optional(),
  delivery: z
    .looseObject({ to: z.string(), status: z.enum(['sent', 'failed']), detail: z.string().optional() })
    .optional(),
});
const count = z.number().int().nonnegative();
const fileSchema: z.ZodType<HeartbeatCounters & { version: typeof VERSION }> = z.looseObject({
  version: z.literal(VERSION),
  turns: count,
  quietBeats: count,
  lastBeatAtMs: z.number().optional(),
  lastResult: lastResultSchema.optional(),
});

/**
 * `state/heartbeat.json`: the beat counters and the last result, so `status.heartbeat` says the
 * same after a restart. Read once at start (a few hundred bytes, before the first beat). These are
 * statistics, not the person's data, so a file that is not one does not stop the heartbeat: it is
 * named in `problem` (with the field), counting starts again from zero, and a copy of it is kept
 * as `heartbeat.json.unreadable` first, because the next beat writes the file whole.
 */
export function readHeartbeatCounters(path: string): { counters?: HeartbeatCounters; problem?: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: `${path} could not be read (${String(error)}); the beat counters start from zero` };
  }
  let reason: string;
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const { version: _version, ...counters } = parsed.data;
      return { counters };
    }
    const issue = parsed.error.issues[0];
    reason = `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`;
  } catch (error) {
    reason = `not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  const copy = `${path}.unreadable`;
  let kept: string;
  try {
    copyFileSync(path, copy);
    kept = `a copy is in ${copy}`;
  } catch (error) {
    kept = `no copy could be kept (${String(error)})`;
  }
  return { problem: `${path} is not a heartbeat state file (${reason}); ${kept}; the beat counters start from zero` };
}

/** Crash-safe (temp file, fsync, rename): a restart sees the old counters or the new ones, never half a file. */
export function writeHeartbeatCounters(path: string, counters: HeartbeatCounters): Promise<void> {
  const { turns, quietBeats, lastBeatAtMs, lastResult } = counters;
  return writeFileAtomic(
    path,
    `${JSON.stringify({ version: VERSION, turns, quietBeats, lastBeatAtMs, lastResult }, null, 2)}\n`,
  );
}
