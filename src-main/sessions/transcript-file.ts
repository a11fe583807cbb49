import { appendFileSync } from 'node:fs';
import { open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import type { Logger } from '../base/logger.js';
import type { AgentMessage } from '../transcript/index.js';

/**
 * One transcript: `<sessionId>.jsonl`, append-only. Line 1 is a header naming the
 * session (so a lost index can be rebuilt from the files), every further line one
 * AgentMessage. A crash mid-append leaves a line without its newline: that torn tail
 * is moved aside into `<file>.torn-<ts>` (kept, never deleted) and the rest stays readable.
 */

export interface TranscriptHeader {
  type: 'session';
  version: 1;
  sessionId: string;
  key: string;
  agentId: string;
  createdAt: number;
}

export interface LoadedTranscript {
  header: TranscriptHeader | undefined;
  messages: AgentMessage[];
}

export function isTranscriptHeader(value: unknown): value is TranscriptHeader {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    v.type === 'session' &&
    typeof v.sessionId === 'string' &&
    typeof v.key === 'string' &&
    typeof v.agentId === 'string' &&
    typeof v.createdAt === 'number'
  );
}

function isAgentMessage(value: unknown): value is AgentMessage {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    typeof (value as { id?: unknown }).id === 'string'
  );
}

/** Creates the file with its header; fails if it already exists so an id is never reused. */
export async function createTranscript(path: string, header: TranscriptHeader): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(header)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Moves a torn tail aside and truncates the file to its last complete line. Returns
 * the path the tail went to, or undefined when the file ended cleanly.
 */
export async function repairTornTail(path: string, now: number, log: Logger): Promise<string | undefined> {
  const bytes = await readFile(path);
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return undefined;
  const keep = bytes.lastIndexOf(0x0a) + 1;
  const aside = `${path}.torn-${now}`;
  // The tail goes to its own file first, so a second crash here loses nothing.
  await writeFile(aside, bytes.subarray(keep), { mode: 0o600, flag: 'wx' });
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(keep);
    await handle.sync();
  } finally {
    await handle.close();
  }
  log.warn('transcript had a torn last line (an append was cut short); moved it aside', {
    path,
    movedTo: aside,
    bytes: bytes.length - keep,
  });
  return aside;
}

/** Reads every message; undecodable lines in the middle are skipped and logged, never fatal. */
export async function loadTranscript(path: string, log: Logger): Promise<LoadedTranscript> {
  const text = await readFile(path, 'utf8');
  const lines = text.split('\n');
  let header: TranscriptHeader | undefined;
  const messages: AgentMessage[] = [];
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    if (i === 0 && isTranscriptHeader(value)) header = value;
    else if (isAgentMessage(value)) messages.push(value);
    else skipped++;
  }
  if (skipped > 0) log.warn('transcript has lines that are not messages; skipped them', { path, skipped });
  return { header, messages };
}

/** Reads only the header line (the index rebuild touches every transcript). */
export async function readTranscriptHeader(path: string): Promise<TranscriptHeader | undefined> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, bytesRead).indexOf(0x0a);
    if (end < 0) return undefined;
    const value: unknown = JSON.parse(buffer.subarray(0, end).toString('utf8'));
    return isTranscriptHeader(value) ? value : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** One write call per batch, so a crash tears at most the last line. */
/**
 * One `write(2)` of the whole lines, made synchronously: an append to the page cache takes
 * microseconds, while the same open/write/close through the thread pool cost a turn ~0.7 ms of
 * wall time twice (user message, reply). The bytes are the operating system's when it returns,
 * as before; the fsync stays asynchronous (`syncTranscript`).
 */
export async function appendMessages(path: string, messages: readonly AgentMessage[]): Promise<void> {
  if (messages.length === 0) return;
  appendFileSync(path, messages.map((message) => `${JSON.stringify(message)}\n`).join(''), { mode: 0o600 });
}

/** fsync: the turn's messages are on disk once this resolves. */
export async function syncTranscript(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Deleted transcripts are renamed, not removed, and no longer count for an index rebuild. */
export async function retireTranscript(path: string, now: number): Promise<string | undefined> {
  try {
    await stat(path);
  } catch {
    return undefined;
  }
  const target = `${path}.deleted-${now}`;
  await rename(path, target);
  return target;
}
