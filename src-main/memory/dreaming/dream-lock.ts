import { randomUUID } from 'node:crypto';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export class DreamingLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DreamingLockedError';
  }
}

export interface DreamLockDeps {
  pid: number;
  now(): number;
  /** Whether a process still exists (process.kill(pid, 0) in production). */
  isAlive(pid: number): boolean;
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One Dreaming run per scope at a time. The lock file holds the owner's pid: a live owner
 * refuses the new run with a clear message, a dead one (crash, kill -9) is taken over.
 */
export async function acquireDreamLock(stateDir: string, deps: DreamLockDeps): Promise<{ release(): Promise<void> }> {
  const path = join(stateDir, 'dreaming.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      const token = randomUUID();
      await handle.writeFile(JSON.stringify({ pid: deps.pid, startedAt: deps.now(), token }));
      await handle.close();
      // Only our own lock goes: a stalled run that was cleared (clearDreamLock) and then woke up
      // must not remove the lock of the run that started after it.
      return {
        release: async () => {
          if ((await readLock(path))?.token === token) await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A torn lock file has no live owner we could know about: take it over.
    const owner = (await readLock(path)) ?? {};
    if (typeof owner.pid === 'number' && deps.isAlive(owner.pid)) {
      const since = owner.startedAt ? new Date(owner.startedAt).toISOString() : 'an unknown time';
      throw new DreamingLockedError(
        `Dreaming is already running (pid ${owner.pid}, since ${since}); try again when it finishes`,
      );
    }
    await rm(path, { force: true });
  }
  throw new DreamingLockedError('could not take the Dreaming lock');
}

interface LockFile {
  pid?: number;
  startedAt?: number;
  token?: string;
}

async function readLock(path: string): Promise<LockFile | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as LockFile;
  } catch {
    return undefined;
  }
}

/** Frees the scope's lock when `pid` holds it (a stalled run being cleared); another holder's stays. */
export async function clearDreamLock(stateDir: string, pid: number): Promise<boolean> {
  const path = join(stateDir, 'dreaming.lock');
  if ((await readLock(path))?.pid !== pid) return false;
  await rm(path, { force: true });
  return true;
}
