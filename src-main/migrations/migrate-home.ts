import { readFile } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import { HearthError } from '../base/errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { HearthPaths } from '../paths/index.js';
import { type Backup, createBackup, restoreBackup } from './migration-backup.js';
import type { StoreCopy, StoreDocuments, StoreFormat } from './store-format.js';

export interface InspectedCopy extends StoreCopy {
  format: StoreFormat;
}

/** Every copy of every format in the home, with its version. */
export async function inspectHome(paths: HearthPaths, formats: readonly StoreFormat[]): Promise<InspectedCopy[]> {
  const copies: InspectedCopy[] = [];
  for (const format of formats) for (const copy of await format.locate(paths)) copies.push({ ...copy, format });
  return copies;
}

/**
 * A file written by a newer Hearth: this one stops before touching anything, naming the file and
 * both versions (the newer one may have changed it in ways this one would lose on its next write).
 */
export class NewerFormatError extends HearthError {
  constructor(
    readonly copies: { path: string; version: number; current: number; label: string }[],
    home: string,
  ) {
    super(
      'unavailable',
      `${copies
        .map(
          (copy) =>
            `${relative(home, copy.path)} (${copy.label}) has format version ${copy.version}, written by a newer Hearth; this one reads up to version ${copy.current}`,
        )
        .join(
          '; ',
        )}. Nothing was changed: run the newer Hearth, or restore a backup from ${home}/backups (docs/UPGRADES.md)`,
    );
    this.name = 'NewerFormatError';
  }
}

export function refuseNewerFormats(home: string, copies: readonly InspectedCopy[]): void {
  const newer = copies.filter((copy) => !copy.unreadable && copy.version > copy.format.current);
  if (newer.length > 0)
    throw new NewerFormatError(
      newer.map((copy) => ({
        path: copy.path,
        version: copy.version,
        current: copy.format.current,
        label: copy.format.label,
      })),
      home,
    );
}

export type MigrationOutcome =
  | { kind: 'current' }
  | { kind: 'migrated'; backup: Backup; migrated: MigratedCopy[] }
  | { kind: 'failed'; backup: Backup; error: Error; migrated: MigratedCopy[] };

export interface MigratedCopy {
  format: string;
  path: string;
  from: number;
  to: number;
}

/**
 * Brings every older copy up to its format's `current`: one backup of all the files involved
 * first, then each copy's steps in order (pure functions), each result written atomically. Any
 * failure — a step that throws, a step with no successor, a write that fails — restores the whole
 * backup, so the home is exactly as it was before the run. Newer copies must be refused first.
 */
export async function migrateHome(deps: {
  paths: HearthPaths;
  copies: readonly InspectedCopy[];
  now: number;
  appVersion: string;
}): Promise<MigrationOutcome> {
  const older = deps.copies.filter((copy) => !copy.unreadable && copy.version < copy.format.current);
  if (older.length === 0) return { kind: 'current' };
  const migrated: MigratedCopy[] = older.map((copy) => ({
    format: copy.format.id,
    path: relative(deps.paths.home, copy.path),
    from: copy.version,
    to: copy.format.current,
  }));
  const backup = await createBackup(
    deps.paths.home,
    { createdAtMs: deps.now, appVersion: deps.appVersion, formats: migrated },
    older.flatMap((copy) => copy.files),
  );
  try {
    for (const copy of older) await migrateCopy(copy, deps.now);
    return { kind: 'migrated', backup, migrated };
  } catch (error) {
    await restoreBackup(deps.paths.home, backup);
    return { kind: 'failed', backup, error: error instanceof Error ? error : new Error(String(error)), migrated };
  }
}

async function migrateCopy(copy: InspectedCopy, now: number): Promise<void> {
  const byName = new Map(copy.files.map((file) => [basename(file), file]));
  let documents: StoreDocuments = {};
  for (const [name, file] of byName) {
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (text !== undefined) documents[name] = parse(text, file);
  }
  const written = new Set<string>();
  for (let version = copy.version; version < copy.format.current; version++) {
    const step = copy.format.steps.find((candidate) => candidate.from === version);
    if (!step) throw new Error(`${copy.format.label}: no migration from version ${version}`);
    const output = step.migrate(structuredClone(documents), { now });
    for (const name of Object.keys(output)) {
      if (!byName.has(name))
        throw new Error(`${copy.format.label} step ${version}: writes ${name}, not one of its files`);
      written.add(name);
    }
    documents = { ...documents, ...output };
  }
  const versioned = documents[basename(copy.path)] as { version?: unknown } | undefined;
  if (versioned?.version !== copy.format.current)
    throw new Error(`${copy.format.label}: the migration did not leave ${copy.path} at version ${copy.format.current}`);
  for (const name of written)
    await writeFileAtomic(byName.get(name) as string, `${JSON.stringify(documents[name], null, 2)}\n`);
}

function parse(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
}
