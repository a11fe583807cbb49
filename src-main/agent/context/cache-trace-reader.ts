import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { TraceCallExplanation, TraceShowResult, TraceStageSummary } from '../../protocol/methods/trace.js';
import { CACHE_TRACE_FILE, CACHE_TRACE_STAGES, type CacheTraceRecord, rotatedPath } from './cache-trace.js';

// Typed by the interface it decodes, so a field added to a record without its schema breaks the build.
const recordSchema: z.ZodType<CacheTraceRecord> = z.looseObject({
  v: z.literal(1),
  ts: z.number(),
  sessionKey: z.string(),
  callId: z.string(),
  stage: z.enum(CACHE_TRACE_STAGES),
  messageCount: z.number(),
  chars: z.number(),
  systemHash: z.string(),
  toolsHash: z.string(),
  messageHashes: z.array(z.string()),
  hash: z.string(),
  content: z.looseObject({ system: z.string().optional(), messages: z.array(z.unknown()) }).optional(),
});

/**
 * Every record of the trace, oldest file first. The trace is an append-only diagnostic, so two
 * kinds of line are skipped on purpose rather than failing the whole history: one that is not JSON
 * (a crash cut an append short) and one that is not a version-1 record (another Hearth's, or
 * edited); the files keep them as they are. A file that exists but cannot be read is an error.
 */
export async function readCacheTraceRecords(dir: string, maxFiles = 10): Promise<CacheTraceRecord[]> {
  const paths = [];
  for (let i = maxFiles - 1; i >= 1; i -= 1) paths.push(rotatedPath(dir, i));
  paths.push(join(dir, CACHE_TRACE_FILE));
  const records: CacheTraceRecord[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      // Fewer rotated files than maxFiles, or no trace yet.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new Error(`cannot read the cache trace ${path}: ${(error as Error).message}`);
    }
    for (const line of text.split('\n')) {
      if (line.trim().length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // torn by a crash mid-append
      }
      const record = recordSchema.safeParse(value);
      if (record.success) records.push(record.data);
    }
  }
  return records;
}

interface TracedCall {
  callId: string;
  ts: number;
  stages: Map<string, CacheTraceRecord>;
}

function groupCalls(records: readonly CacheTraceRecord[], sessionKey: string): TracedCall[] {
  const calls = new Map<string, TracedCall>();
  for (const record of records) {
    if (record.sessionKey !== sessionKey) continue;
    let call = calls.get(record.callId);
    if (!call) {
      call = { callId: record.callId, ts: record.ts, stages: new Map() };
      calls.set(record.callId, call);
    }
    call.stages.set(record.stage, record);
  }
  return [...calls.values()];
}

/** Why a stage of this call could not reuse the previous call's cached prefix, or undefined if it could. */
export function prefixBreak(previous: CacheTraceRecord, current: CacheTraceRecord): string | undefined {
  if (previous.systemHash !== current.systemHash) return 'system prompt changed';
  if (previous.toolsHash !== current.toolsHash) return 'tool schemas changed';
  const shared = Math.min(previous.messageHashes.length, current.messageHashes.length);
  for (let i = 0; i < shared; i += 1) {
    if (previous.messageHashes[i] !== current.messageHashes[i])
      return `message ${i + 1} changed (earlier history was rewritten, e.g. compaction or truncation)`;
  }
  if (current.messageHashes.length < previous.messageHashes.length)
    return 'history got shorter (compaction or limiting)';
  return undefined;
}

/** Explains each call against the previous call of the same session. */
export function explainCacheTrace(
  records: readonly CacheTraceRecord[],
  sessionKey: string,
  limit = 50,
): TraceShowResult {
  const calls = groupCalls(records, sessionKey);
  const explained: TraceCallExplanation[] = calls.map((call, index) => {
    const stages: TraceStageSummary[] = CACHE_TRACE_STAGES.flatMap((stage) => {
      const record = call.stages.get(stage);
      return record ? [{ stage, messageCount: record.messageCount, chars: record.chars, hash: record.hash }] : [];
    });
    const previous = calls[index - 1];
    if (!previous) return { callId: call.callId, ts: call.ts, stages, verdict: 'first_call' };
    for (const stage of CACHE_TRACE_STAGES) {
      const before = previous.stages.get(stage);
      const now = call.stages.get(stage);
      if (!before || !now) continue;
      const reason = prefixBreak(before, now);
      if (reason) return { callId: call.callId, ts: call.ts, stages, verdict: 'cache_miss', missStage: stage, reason };
    }
    return { callId: call.callId, ts: call.ts, stages, verdict: 'prefix_stable' };
  });
  return { sessionKey, calls: explained.slice(-limit) };
}

export async function showCacheTrace(dir: string, sessionKey: string, limit?: number): Promise<TraceShowResult> {
  if (sessionKey.trim().length === 0) throw new RangeError('sessionKey must not be empty');
  return explainCacheTrace(await readCacheTraceRecords(dir), sessionKey, limit);
}
