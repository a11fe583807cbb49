import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative } from 'node:path';
import { z } from 'zod';
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

/** A path the manifest names must stay inside the home: restoring writes to it. */
const inHomePath = z
  .string()
  .min(1)
  .refine((path) => !isAbsolute(path) && !normalize(path).startsWith('..'), 'must be a path inside the Hearth home');
// Typed by the interface, so a field added to the manifest without its schema breaks the build.
const manifestSchema: z.ZodType<BackupManifest> = z.looseObject({
  version: z.literal(1),
  createdAtMs: z.number(),
  appVersion: z.string(),
  formats: z.array(
    z.looseObject({ format: z.string(), path: z.string(), from: z.number().int(), to: z.number().int() }),
  ),
  files: z.array(z.looseObject({ path: inHomePath, existed: z.boolean() })),
});

/** A backup whose manifest is there but is not one; the backup is left as it is. */
export class BackupManifestError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(
      `${path} cannot be read as a backup manifest (${reason}); the backup was left as it is: fix the manifest or move the folder out of backups/`,
    );
    this.name = 'BackupManifestError';
  }
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

/**
 * The backup in `dir`, or undefined when it has no manifest (a backup cut off before its manifest,
 * which is written last, is incomplete and never restored from). A manifest that is there but does
 * not decode throws, naming the file and the field: restoring from a guess could drop files.
 */
export async function readBackup(dir: string): Promise<Backup | undefined> {
  const path = join(dir, 'manifest.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BackupManifestError(path, `not JSON: ${(error as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupManifestError(path, `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
  }
  return { dir, manifest: parsed.data };
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
