import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readTranscriptHeader } from './transcript-file.js';

/**
 * Removes every file of a session key's conversations: the current transcript, the ones earlier
 * resets set aside (`<id>.jsonl` with the key in their header, which an index rebuild would
 * otherwise bring back), and their torn or retired copies (`<id>.jsonl.torn-…`, `.deleted-…`).
 * Returns how many files went. A file that vanished meanwhile is not an error.
 */
export async function removeTranscriptsOfKey(
  sessionsDir: string,
  agentId: string,
  key: string,
  currentSessionId: string,
): Promise<number> {
  let names: string[];
  try {
    names = await readdir(sessionsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const ids = new Set([currentSessionId]);
  for (const name of names) {
    if (!name.endsWith('.jsonl') || ids.has(name.slice(0, -'.jsonl'.length))) continue;
    const header = await readTranscriptHeader(join(sessionsDir, name)).catch(() => undefined);
    if (header && header.key === key && header.agentId === agentId) ids.add(header.sessionId);
  }
  let removed = 0;
  for (const name of names) {
    const id = name.slice(0, name.indexOf('.jsonl'));
    if (!name.includes('.jsonl') || !ids.has(id)) continue;
    try {
      await unlink(join(sessionsDir, name));
      removed++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
