import { join } from 'node:path';
import type { ImportInventory, ImportSource } from './import-types.js';
import { readHermes } from './read-hermes.js';
import { readOpenClaw } from './read-openclaw.js';
import { isFile, isFolder } from './source-files.js';

export interface DetectedSource {
  source: ImportSource;
  from: string;
  found: boolean;
}

/** Where each tool keeps its state by default: OPENCLAW_STATE_DIR / HERMES_HOME, else the home folder. */
export function defaultSourceFolder(
  source: ImportSource,
  userHome: string,
  env: Record<string, string | undefined> = {},
): string {
  if (source === 'openclaw') return env.OPENCLAW_STATE_DIR ?? join(userHome, '.openclaw');
  return env.HERMES_HOME ?? join(userHome, '.hermes');
}

/** Whether a folder looks like that tool's home (its config or workspace is there). */
async function looksLike(source: ImportSource, from: string): Promise<boolean> {
  if (!(await isFolder(from))) return false;
  if (source === 'openclaw')
    return (
      (await isFile(join(from, 'openclaw.json'))) ||
      (await isFolder(join(from, 'workspace'))) ||
      (await isFolder(join(from, 'agents')))
    );
  return (
    (await isFile(join(from, 'config.yaml'))) ||
    (await isFolder(join(from, 'memories'))) ||
    (await isFile(join(from, 'SOUL.md')))
  );
}

export async function detectImportSources(
  userHome: string,
  env: Record<string, string | undefined> = {},
): Promise<DetectedSource[]> {
  const sources: ImportSource[] = ['openclaw', 'hermes'];
  return Promise.all(
    sources.map(async (source) => {
      const from = defaultSourceFolder(source, userHome, env);
      return { source, from, found: await looksLike(source, from) };
    }),
  );
}

/** Reads the other tool's folder; a folder that is not its home is an error naming what is missing. */
export async function readImportSource(source: ImportSource, from: string, userHome: string): Promise<ImportInventory> {
  if (!(await looksLike(source, from))) {
    const expected =
      source === 'openclaw' ? 'openclaw.json, workspace/ or agents/' : 'config.yaml, memories/ or SOUL.md';
    throw new Error(
      `${from} does not look like a${source === 'openclaw' ? 'n OpenClaw' : ' Hermes'} folder (no ${expected})`,
    );
  }
  return source === 'openclaw' ? readOpenClaw({ from, userHome }) : readHermes({ from });
}
