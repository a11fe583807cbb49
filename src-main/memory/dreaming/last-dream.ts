import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { MemoryScope } from '../memory-scope.js';
import { dreamsStateDir } from '../recall-log.js';

/** How a scope's most recent Dreaming run went (`dreams.status.last`). */
export interface LastDream {
  at: number;
  promoted: number;
  /** False for a preview or a review run. */
  applied: boolean;
  /** Review mode: candidates the run left waiting for approval. */
  queued?: number;
}

const FILE = 'last-run.json';

export async function writeLastDream(workspaceDir: string, scope: MemoryScope, last: LastDream): Promise<void> {
  await writeFileAtomic(join(dreamsStateDir(workspaceDir, scope), FILE), `${JSON.stringify(last)}\n`);
}

/** The scope's last run, or undefined when it never dreamed (or the file is not one we wrote). */
export async function readLastDream(workspaceDir: string, scope: MemoryScope): Promise<LastDream | undefined> {
  let text: string;
  try {
    text = await readFile(join(dreamsStateDir(workspaceDir, scope), FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<LastDream>;
    if (typeof value.at !== 'number' || typeof value.promoted !== 'number' || typeof value.applied !== 'boolean')
      return undefined;
    return {
      at: value.at,
      promoted: value.promoted,
      applied: value.applied,
      ...(typeof value.queued === 'number' ? { queued: value.queued } : {}),
    };
  } catch {
    return undefined;
  }
}
