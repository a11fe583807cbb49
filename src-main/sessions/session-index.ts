import { readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../base/logger.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readTranscriptHeader } from './transcript-file.js';

/**
 * `sessions.json` of one agent: session key → current session id + metadata. Written
 * atomically. When it cannot be read, the bad file is kept aside and the index is
 * rebuilt from the transcript headers on disk (the newest transcript per key wins).
 */

export const indexEntrySchema = z.object({
  sessionId: z.string().min(1),
  createdAt: z.number(),
  updatedAt: z.number(),
  title: z.string().optional(),
  model: z.string().optional(),
  messageCount: z.number().int().nonnegative().optional(),
  pinned: z.boolean().optional(),
  archived: z.boolean().optional(),
  forkedFrom: z.object({ key: z.string(), sessionId: z.string(), messageId: z.string() }).optional(),
});

const indexFileSchema = z.object({
  version: z.literal(1),
  sessions: z.record(z.string(), indexEntrySchema),
});

export type IndexEntry = z.output<typeof indexEntrySchema>;

export const INDEX_FILE = 'sessions.json';

export function indexPath(sessionsDir: string): string {
  return join(sessionsDir, INDEX_FILE);
}

export async function writeIndex(sessionsDir: string, entries: ReadonlyMap<string, IndexEntry>): Promise<void> {
  const sessions: Record<string, IndexEntry> = {};
  for (const [key, entry] of entries) sessions[key] = entry;
  await writeFileAtomic(indexPath(sessionsDir), `${JSON.stringify({ version: 1, sessions }, null, 2)}\n`);
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Rebuilds from `<id>.jsonl` headers; retired (`.deleted-`) and torn-aside files are not transcripts. */
export async function rebuildIndex(
  sessionsDir: string,
  agentId: string,
  log: Logger,
): Promise<Map<string, IndexEntry>> {
  const entries = new Map<string, IndexEntry>();
  let names: string[];
  try {
    names = await readdir(sessionsDir);
  } catch (error) {
    if (isMissing(error)) return entries;
    throw error;
  }
  for (const name of names.filter((n) => n.endsWith('.jsonl')).sort()) {
    const path = join(sessionsDir, name);
    const header = await readTranscriptHeader(path);
    if (!header || header.agentId !== agentId || `${header.sessionId}.jsonl` !== name) {
      log.warn('ignoring a transcript without a valid header while rebuilding the session index', { path });
      continue;
    }
    const updatedAt = Math.max(header.createdAt, (await stat(path)).mtimeMs);
    const current = entries.get(header.key);
    if (current && current.createdAt > header.createdAt) continue;
    entries.set(header.key, { sessionId: header.sessionId, createdAt: header.createdAt, updatedAt });
  }
  return entries;
}

/**
 * Loads the index; a missing file is an empty index, an unreadable one is moved to
 * `sessions.json.corrupt-<ts>` and rebuilt (and the rebuilt index written back).
 */
export async function loadIndex(
  sessionsDir: string,
  agentId: string,
  now: number,
  log: Logger,
): Promise<Map<string, IndexEntry>> {
  const path = indexPath(sessionsDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return new Map();
    throw error;
  }
  let problem: string;
  try {
    const parsed = indexFileSchema.safeParse(JSON.parse(text));
    if (parsed.success) return new Map(Object.entries(parsed.data.sessions));
    problem = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  const aside = `${path}.corrupt-${now}`;
  await rename(path, aside);
  const entries = await rebuildIndex(sessionsDir, agentId, log);
  await writeIndex(sessionsDir, entries);
  log.warn('sessions.json was unreadable; kept it aside and rebuilt the index from the transcripts on disk', {
    agentId,
    problem,
    keptAs: aside,
    rebuiltSessions: entries.size,
  });
  return entries;
}
