import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';

/**
 * A copy of the files a migration is about to change, under `<home>/backups/<ts>-v<from>-v<to>/`:
 * `files/<path in the home>` plus `manifest.json`, which also lists the files that did not exist
 * (restoring removes those). Restoring by hand is copying `files/` back over the home.
 */
export interface BackupManifest {
  version: 1;
  createdAtMs: number;
  appVersion: string;
  formats: { format: string; path: string; from: number; to: number }[];
  /** Paths relative to the home. */
  files: { path: string; existed: boolean }[];
}

export interface Backup {
  dir: string;
  manifest: BackupManifest;
}

export function backupsDir(home: string): string {
  return join(home, 'backups');
}

function stamp(ms: number): string {
  // 2026-12-02T17-40-05-123Z: sorts by time and is a valid folder name everywhere.
  return new Date(ms).toISOString().replaceAll(':', '-').replace('.', '-');
}

export async function createBackup(
  home: string,
  manifest: Omit<BackupManifest, 'version' | 'files'>,
  files: readonly string[],
): Promise<Backup> {
  const from = Math.min(...manifest.formats.map((format) => format.from));
  const to = Math.max(...manifest.formats.map((format) => format.to));
  let dir = join(backupsDir(home), `${stamp(manifest.createdAtMs)}-v${from}-v${to}`);
  for (let n = 2; await exists(dir); n++)
    dir = join(backupsDir(home), `${stamp(manifest.createdAtMs)}-v${from}-v${to}-${n}`);
  await mkdir(join(dir, 'files'), { recursive: true, mode: 0o700 });
  const entries: BackupManifest['files'] = [];
  for (const file of new Set(files)) {
    const path = inHome(home, file);
    let existed = true;
    try {
      await mkdir(dirname(join(dir, 'files', path)), { recursive: true, mode: 0o700 });
      await copyFile(file, join(dir, 'files', path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      existed = false;
    }
    entries.push({ path, existed });
  }
  const full: BackupManifest = { version: 1, ...manifest, files: entries };
  // Written last: a backup without a manifest is incomplete and never restored from.
  await writeFileAtomic(join(dir, 'manifest.json'), `${JSON.stringify(full, null, 2)}\n`);
  return { dir, manifest: full };
}

/** Puts every backed-up file back (atomically, each) and removes the ones the migration created. */
export async function restoreBackup(home: string, backup: Backup): Promise<void> {
  for (const entry of backup.manifest.files) {
    const target = join(home, entry.path);
    if (entry.existed) await writeFileAtomic(target, await readFile(join(backup.dir, 'files', entry.path)));
    else await rm(target, { force: true });
  }
}

export async function readBackup(dir: string): Promise<Backup | undefined> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
    return manifest.version === 1 && Array.isArray(manifest.files) ? { dir, manifest } : undefined;
  } catch {
    return undefined;
  }
}

/** Complete backups, oldest first. */
export async function listBackups(home: string): Promise<Backup[]> {
  let names: string[];
  try {
    names = (await readdir(backupsDir(home))).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const backups: Backup[] = [];
  for (const name of names) {
    const backup = await readBackup(join(backupsDir(home), name));
    if (backup) backups.push(backup);
  }
  return backups;
}

function inHome(home: string, file: string): string {
  const path = relative(home, file);
  if (path.startsWith('..') || isAbsolute(path)) throw new Error(`${file} is outside the Hearth home ${home}`);
  return path;
}

async function exists(path: string): Promise<boolean> {
  try {
    await readdir(path);
    return true;
  } catch {
    return false;
  }
}
