import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { UpgradesStatus } from '../protocol/methods/gateway.js';

/**
 * `state/upgrades.json`: what the last start did to the home's formats, for `hearth doctor`,
 * `status.upgrades` and the log. `held` stops one app version from re-running a migration whose
 * result crashed it twice (a newer or older version tries again).
 */
/** What a start did, as `status.upgrades.lastEvent` shows it. */
export type UpgradeEvent = NonNullable<UpgradesStatus['lastEvent']>;

export interface UpgradeState {
  version: 1;
  lastEvent?: UpgradeEvent;
  held?: { appVersion: string; reason: string };
  lastGoodStartMs?: number;
  lastGoodAppVersion?: string;
}

/**
 * `state/start-marker.json`, written before anything else at start and removed once the gateway
 * is up: finding one means the previous start never got there. `attempts` counts such starts in
 * a row; `backups` are those made by migrations during them (what a crash-twice restore undoes).
 */
export interface StartMarker {
  attempts: number;
  startedAtMs: number;
  appVersion: string;
  backups: string[];
}

export const upgradeStatePath = (stateDir: string) => join(stateDir, 'upgrades.json');
export const startMarkerPath = (stateDir: string) => join(stateDir, 'start-marker.json');

// Typed by the interfaces they decode, so a field added without its schema breaks the build;
// `loose`, so a key a newer Hearth wrote is kept when this one rewrites the file.
const upgradeEventSchema: z.ZodType<UpgradeEvent> = z.looseObject({
  kind: z.enum(['migrated', 'migration-failed', 'crash-restored', 'crash-nothing-to-restore']),
  atMs: z.number(),
  appVersion: z.string(),
  message: z.string(),
  backups: z.array(z.string()).optional(),
  error: z.string().optional(),
  files: z.array(z.string()).optional(),
  attempts: z.number().int().nonnegative().optional(),
});
const upgradeStateSchema: z.ZodType<UpgradeState> = z.looseObject({
  version: z.literal(1),
  lastEvent: upgradeEventSchema.optional(),
  held: z.looseObject({ appVersion: z.string(), reason: z.string() }).optional(),
  lastGoodStartMs: z.number().optional(),
  lastGoodAppVersion: z.string().optional(),
});
const startMarkerSchema: z.ZodType<StartMarker> = z.looseObject({
  attempts: z.number().int().positive(),
  startedAtMs: z.number(),
  appVersion: z.string(),
  backups: z.array(z.string()),
});

/** A bookkeeping file that exists but is not what this Hearth wrote; it is left as it is. */
export class UpgradeStateError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path} cannot be read (${reason}); it was left as it is: fix or remove it, then start Hearth again`);
    this.name = 'UpgradeStateError';
  }
}

/**
 * Missing is fine (a first start, or the marker of a start that came up). A file that is there but
 * does not decode stops the start instead of being rewritten whole: `held` and the marker's
 * backups are what a crash-twice restore relies on, so guessing them away could re-run a migration
 * that crashed this version. Both files are written atomically, so a crash never leaves one torn.
 */
async function readDecoded<T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UpgradeStateError(path, `not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new UpgradeStateError(path, `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
}

export async function readUpgradeState(stateDir: string): Promise<UpgradeState> {
  return (await readDecoded(upgradeStatePath(stateDir), upgradeStateSchema)) ?? { version: 1 };
}

export async function writeUpgradeState(stateDir: string, state: UpgradeState): Promise<void> {
  await writeFileAtomic(upgradeStatePath(stateDir), `${JSON.stringify(state, null, 2)}\n`);
}

export async function readStartMarker(stateDir: string): Promise<StartMarker | undefined> {
  return readDecoded(startMarkerPath(stateDir), startMarkerSchema);
}

export async function writeStartMarker(stateDir: string, marker: StartMarker): Promise<void> {
  await writeFileAtomic(startMarkerPath(stateDir), `${JSON.stringify(marker, null, 2)}\n`);
}

export async function clearStartMarker(stateDir: string): Promise<void> {
  await rm(startMarkerPath(stateDir), { force: true });
}
