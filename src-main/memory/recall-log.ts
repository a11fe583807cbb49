import { appendFile, mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactSecrets } from '../base/secret-redaction.js';
import type { MemoryScope } from './memory-scope.js';

/** One search hit, as Dreaming sees it later (query, score, day). */
export interface RecallEntry {
  ts: number;
  day: string;
  query: string;
  path: string;
  line: number;
  /** The note line that matched best, the unit Dreaming promotes. */
  text: string;
  score: number;
}

export function dreamsStateDir(workspaceDir: string, scope: MemoryScope): string {
  return join(workspaceDir, scope.root, 'memory', '.dreams');
}

/**
 * Append-only JSONL per scope: cheap to write on every search, replayed by Dreaming. The query
 * is often the person's chat message as typed, so it (and the matched line) pass the secret
 * catalogue first: a key pasted into chat never lands here.
 */
export async function recordRecalls(workspaceDir: string, scope: MemoryScope, entries: RecallEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const dir = dreamsStateDir(workspaceDir, scope);
  const lines = entries.map(
    (entry) => `${JSON.stringify({ ...entry, query: redactSecrets(entry.query), text: redactSecrets(entry.text) })}\n`,
  );
  const append = () => appendFile(join(dir, 'recalls.jsonl'), lines.join(''), { mode: 0o600 });
  // Every search on a turn's path lands here: the folder is made only the first time it is missing.
  await append().catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    await append();
  });
}

export async function readRecalls(workspaceDir: string, scope: MemoryScope): Promise<RecallEntry[]> {
  let text: string;
  try {
    text = await readFile(join(dreamsStateDir(workspaceDir, scope), 'recalls.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const out: RecallEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as RecallEntry;
      if (typeof entry.text === 'string' && typeof entry.query === 'string') out.push(entry);
    } catch {
      // A torn last line from a crash is skipped, not fatal.
    }
  }
  return out;
}

/**
 * Drops recall entries older than `sinceDay` (YYYY-MM-DD), which Dreaming no longer reads, so the
 * log does not grow forever. Searches keep appending while this runs: whatever was appended after
 * the read is carried over before the swap, and torn or unreadable lines are kept as they are.
 */
export async function pruneRecalls(
  workspaceDir: string,
  scope: MemoryScope,
  sinceDay: string,
): Promise<{ kept: number; dropped: number }> {
  const path = join(dreamsStateDir(workspaceDir, scope), 'recalls.jsonl');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { kept: 0, dropped: 0 };
  }
  const readBytes = Buffer.byteLength(text);
  let dropped = 0;
  const kept = text.split('\n').filter((line) => {
    if (!line.trim()) return false;
    try {
      const entry = JSON.parse(line) as Partial<RecallEntry>;
      if (typeof entry.day === 'string' && entry.day < sinceDay) {
        dropped++;
        return false;
      }
    } catch {
      // Not ours to judge: keep it (readRecalls skips it anyway).
    }
    return true;
  });
  if (dropped === 0) return { kept: kept.length, dropped };
  const temp = `${path}.prune-${process.pid}`;
  await writeFile(temp, kept.map((line) => `${line}\n`).join(''), { mode: 0o600 });
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > readBytes) {
      const tail = Buffer.alloc(size - readBytes);
      await handle.read(tail, 0, tail.length, readBytes);
      await appendFile(temp, tail);
    }
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  return { kept: kept.length, dropped };
}
