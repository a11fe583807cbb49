import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway HEARTH_HOME; `cleanup` removes it. */
export async function createTempHome(prefix = 'hearth-test-'): Promise<{ home: string; cleanup(): Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), prefix));
  return { home, cleanup: () => rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }) };
}
