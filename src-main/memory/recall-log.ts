import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/** Append-only JSONL per scope: cheap to write on every search, replayed by Dreaming. */
export async function recordRecalls(workspaceDir: string, scope: MemoryScope, entries: RecallEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const dir = dreamsStateDir(workspaceDir, scope);
  await mkdir(dir, { recursive: true });
  await appendFile(join(dir, 'recalls.jsonl'), entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''), {
    mode: 0o600,
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
