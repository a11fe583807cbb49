import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TraceCallExplanation, TraceShowResult, TraceStageSummary } from '../../protocol/methods/trace.js';
import { CACHE_TRACE_FILE, CACHE_TRACE_STAGES, type CacheTraceRecord, rotatedPath } from './cache-trace.js';

/** Every record of the trace, oldest file first; unreadable lines are skipped (a crash may cut the last one). */
export async function readCacheTraceRecords(dir: string, maxFiles = 10): Promise<CacheTraceRecord[]> {
  const paths = [];
  for (let i = maxFiles - 1; i >= 1; i -= 1) paths.push(rotatedPath(dir, i));
  paths.push(join(dir, CACHE_TRACE_FILE));
  const records: CacheTraceRecord[] = [];
  for (const path of paths) {
    const text = await readFile(path, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (line.trim().length === 0) continue;
      try {
        const parsed = JSON.parse(line) as CacheTraceRecord;
        if (parsed.v === 1 && typeof parsed.callId === 'string') records.push(parsed);
      } catch {
        // A torn last line from a crash: ignore it, the rest is still good.
      }
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
