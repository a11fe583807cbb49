import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { AuthProfile, AuthProfileStats } from './auth-profile.js';

/** `state/auth-profiles.json`: profiles added at run time plus every profile's stats. No secrets. */
export interface AuthProfileFileData {
  version: 1;
  profiles: Record<string, Omit<AuthProfile, 'id' | 'fromConfig'>>;
  stats: Record<string, AuthProfileStats>;
}

export const authProfilesFileName = 'auth-profiles.json';

export function authProfilesPath(stateDir: string): string {
  return join(stateDir, authProfilesFileName);
}

export function emptyAuthProfileFile(): AuthProfileFileData {
  return { version: 1, profiles: {}, stats: {} };
}

/** A missing file is an empty one; a corrupt one is an error naming the file (never silently reset). */
export async function readAuthProfileFile(path: string): Promise<AuthProfileFileData> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyAuthProfileFile();
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${path} is not valid JSON; fix or remove it to reset auth profile stats`);
  }
  const data = parsed as Partial<AuthProfileFileData>;
  if (!data || typeof data !== 'object' || data.version !== 1) {
    throw new Error(`${path} has an unknown format (expected version 1)`);
  }
  return { version: 1, profiles: data.profiles ?? {}, stats: data.stats ?? {} };
}

/** Serializes writes so concurrent updates cannot reorder on disk. */
export function createAuthProfileWriter(path: string): (data: AuthProfileFileData) => Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  return (data) => {
    const snapshot = JSON.stringify(data, null, 2);
    chain = chain.catch(() => {}).then(() => writeFileAtomic(path, snapshot));
    return chain;
  };
}
