import { readFile } from 'node:fs/promises';
import type { HearthPaths } from '../paths/index.js';

/**
 * One on-disk format of Hearth (hearth.json, a sessions index, the permissions file, …): where
 * its files are, which version each copy has, and the steps that bring an older copy up to
 * `current`. Capabilities keep reading only `current`; everything older is this folder's job.
 */
export interface StoreFormat {
  id: string;
  /** What a person calls it (doctor, logs). */
  label: string;
  /** The version this Hearth writes and reads. */
  current: number;
  /** Every copy of the format in a home (one sessions index per agent); none when it does not exist yet. */
  locate(paths: HearthPaths): Promise<StoreCopy[]>;
  /** Step `from` → `from + 1`, in order. */
  steps: readonly MigrationStep[];
}

/** One copy of a format: the file that carries its version and the files a migration may change. */
export interface StoreCopy {
  /** The file whose `version` is the copy's version (it may not exist yet, e.g. before version 1). */
  path: string;
  version: number;
  /** False when the file has no version field (read as the version it has always been). */
  explicit: boolean;
  /** Absolute paths a step reads and writes (distinct file names); all are backed up before a step runs. */
  files: string[];
  /** Set when the file is not JSON: not a migration's business (the capability recovers or reports). */
  unreadable?: string;
}

/** The parsed JSON of a copy's files, by file name (`permissions.json`); a missing file is absent. */
export type StoreDocuments = Record<string, unknown>;

/**
 * A pure function from the documents of version `from` to those of `from + 1`: what it returns is
 * written (atomically) and nothing else is touched. It may throw; the run is then undone.
 */
export interface MigrationStep {
  from: number;
  describe: string;
  migrate(documents: StoreDocuments, context: { now: number }): StoreDocuments;
}

export type VersionRead =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'found'; version: number; explicit: boolean; document: unknown };

/**
 * The version of a JSON file with a top-level `version`; a file without one is `implicit`
 * (today's files: version 1). A version that is not a positive integer counts as unreadable.
 */
export async function readJsonVersion(path: string, implicit = 1): Promise<VersionRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', reason: (error as Error).message };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { kind: 'unreadable', reason: `not JSON: ${(error as Error).message}` };
  }
  const version = (document as { version?: unknown } | null)?.version;
  if (version === undefined || document === null || typeof document !== 'object')
    return { kind: 'found', version: implicit, explicit: false, document };
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
    return { kind: 'unreadable', reason: `"version" is ${JSON.stringify(version)}, not a whole number` };
  return { kind: 'found', version, explicit: true, document };
}

/** A located copy from a version read (missing files are no copy). */
export function copyOf(path: string, read: VersionRead, files: string[] = [path]): StoreCopy[] {
  if (read.kind === 'missing') return [];
  if (read.kind === 'unreadable') return [{ path, version: 0, explicit: false, files, unreadable: read.reason }];
  return [{ path, version: read.version, explicit: read.explicit, files }];
}
