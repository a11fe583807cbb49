import { createHash } from 'node:crypto';
import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../base/clock.js';
import { redactSecrets } from './redact-secrets.js';

/**
 * The cache trace: for each LLM call, the context at seven stages as sizes and hashes, so
 * "why did the prompt cache miss?" has an answer (the first stage whose prefix changed).
 * Content is written only with the debug flag, and always through `redactSecrets`.
 */
export const CACHE_TRACE_STAGES = [
  'session_loaded',
  'sanitized',
  'limited',
  'prompt_before',
  'images',
  'stream_context',
  'session_after',
] as const;
export type CacheTraceStage = (typeof CACHE_TRACE_STAGES)[number];

export const CACHE_TRACE_FILE = 'cache-trace.jsonl';
export const DEFAULT_TRACE_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_TRACE_MAX_FILES = 3;

/** What a stage looked like; `messages` are whatever the caller holds at that stage (agent or provider shape). */
export interface CacheTraceSnapshot {
  system?: string;
  tools?: unknown;
  messages: readonly unknown[];
}

export interface CacheTraceRecord {
  v: 1;
  ts: number;
  sessionKey: string;
  callId: string;
  stage: CacheTraceStage;
  messageCount: number;
  chars: number;
  systemHash: string;
  toolsHash: string;
  /** Hash of each message, in order: a prompt cache hits only on an unchanged prefix. */
  messageHashes: string[];
  /** The whole stage's hash. */
  hash: string;
  /** Only with the debug flag; secrets redacted. */
  content?: { system?: string; messages: unknown[] };
}

export interface CacheTraceWriterOptions {
  dir: string;
  clock: Clock;
  /** Write content too (redacted). Off by default. */
  debug?: boolean;
  maxBytes?: number;
  maxFiles?: number;
}

export interface CacheTraceWriter {
  record(input: {
    sessionKey: string;
    callId: string;
    stage: CacheTraceStage;
    snapshot: CacheTraceSnapshot;
  }): Promise<void>;
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

// A call traces the same message objects at several stages, and a session at every call:
// messages are immutable once written, so their JSON and hash are computed once per object.
const measuredMessages = new WeakMap<object, { json: string; hash: string }>();

function measureMessage(message: unknown): { json: string; hash: string } {
  const cacheable = typeof message === 'object' && message !== null;
  if (cacheable) {
    const hit = measuredMessages.get(message);
    if (hit) return hit;
  }
  const json = stableJson(message);
  const measured = { json, hash: shortHash(json).slice(0, 12) };
  if (cacheable) measuredMessages.set(message, measured);
  return measured;
}

export function buildTraceRecord(
  input: { sessionKey: string; callId: string; stage: CacheTraceStage; snapshot: CacheTraceSnapshot },
  ts: number,
  debug: boolean,
): CacheTraceRecord {
  const { snapshot } = input;
  const system = snapshot.system ?? '';
  const tools = stableJson(snapshot.tools ?? null);
  const measured = snapshot.messages.map(measureMessage);
  const messageJson = measured.map((m) => m.json);
  const messageHashes = measured.map((m) => m.hash);
  const systemHash = shortHash(system);
  const toolsHash = shortHash(tools);
  const record: CacheTraceRecord = {
    v: 1,
    ts,
    sessionKey: input.sessionKey,
    callId: input.callId,
    stage: input.stage,
    messageCount: snapshot.messages.length,
    chars: system.length + tools.length + messageJson.reduce((n, json) => n + json.length, 0),
    systemHash,
    toolsHash,
    messageHashes,
    hash: shortHash(`${systemHash}|${toolsHash}|${messageHashes.join(',')}`),
  };
  if (debug) {
    record.content = {
      system: redactSecrets(system),
      messages: messageJson.map((json) => JSON.parse(redactSecrets(json)) as unknown),
    };
  }
  return record;
}

/** Appends JSONL; when the file passes maxBytes it becomes `.1`, `.1` becomes `.2`, the oldest is dropped. */
export function createCacheTraceWriter(options: CacheTraceWriterOptions): CacheTraceWriter {
  const maxBytes = options.maxBytes ?? DEFAULT_TRACE_MAX_BYTES;
  const maxFiles = options.maxFiles ?? DEFAULT_TRACE_MAX_FILES;
  if (!(maxBytes > 0)) throw new RangeError(`maxBytes must be positive, got ${String(maxBytes)}`);
  if (!Number.isInteger(maxFiles) || maxFiles < 1)
    throw new RangeError(`maxFiles must be an integer ≥ 1, got ${String(maxFiles)}`);
  const path = join(options.dir, CACHE_TRACE_FILE);
  // Records of concurrent calls are serialized so rotation never races an append. A turn records
  // seven stages per model call: the lines that arrive while a write is queued go out together in
  // one append, and the folder and the file's size are learnt once, not per line.
  let queue: Promise<void> = Promise.resolve();
  let batch: { lines: string[]; written: Promise<void> } | undefined;
  let folderMade = false;
  let size: number | undefined;

  const rotateIfNeeded = async (incoming: number) => {
    size ??= await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    if (size === 0 || size + incoming <= maxBytes) return;
    await rm(rotatedPath(options.dir, maxFiles - 1), { force: true });
    for (let i = maxFiles - 2; i >= 1; i -= 1) {
      await rename(rotatedPath(options.dir, i), rotatedPath(options.dir, i + 1)).catch(() => undefined);
    }
    if (maxFiles > 1) await rename(path, rotatedPath(options.dir, 1));
    else await rm(path, { force: true });
    size = 0;
  };

  const write = async (text: string) => {
    try {
      if (!folderMade) await mkdir(options.dir, { recursive: true });
      folderMade = true;
      const bytes = Buffer.byteLength(text);
      await rotateIfNeeded(bytes);
      await appendFile(path, text, { encoding: 'utf8', mode: 0o600 });
      size = (size ?? 0) + bytes;
    } catch (error) {
      // Someone removed the folder or the file: learn both again on the next write.
      folderMade = false;
      size = undefined;
      throw error;
    }
  };

  return {
    record(input) {
      const line = `${JSON.stringify(buildTraceRecord(input, options.clock.now(), options.debug === true))}\n`;
      if (!batch) {
        const lines: string[] = [];
        const written = queue.then(() => {
          batch = undefined;
          return write(lines.join(''));
        });
        batch = { lines, written };
        queue = written.catch(() => undefined);
      }
      batch.lines.push(line);
      return batch.written;
    },
  };
}

export function rotatedPath(dir: string, index: number): string {
  return join(dir, `cache-trace.${index}.jsonl`);
}

/** JSON with sorted keys: the same content always hashes the same. */
export function stableJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        return Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        );
      }
      return v;
    }) ?? 'null'
  );
}
