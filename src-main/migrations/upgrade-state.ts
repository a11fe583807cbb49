import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
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

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    // Missing, or torn / hand-broken: bookkeeping must not stop a start; it is rewritten whole.
    return undefined;
  }
}

export async function readUpgradeState(stateDir: string): Promise<UpgradeState> {
  const raw = (await readJson(upgradeStatePath(stateDir))) as UpgradeState | undefined;
  return raw && typeof raw === 'object' && raw.version === 1 ? raw : { version: 1 };
}

export async function writeUpgradeState(stateDir: string, state: UpgradeState): Promise<void> {
  await writeFileAtomic(upgradeStatePath(stateDir), `${JSON.stringify(state, null, 2)}\n`);
}

export async function readStartMarker(stateDir: string): Promise<StartMarker | undefined> {
  const raw = (await readJson(startMarkerPath(stateDir))) as Partial<StartMarker> | undefined;
  if (!raw || typeof raw !== 'object') return undefined;
  return {
    attempts: Number(raw.attempts) || 1,
    startedAtMs: Number(raw.startedAtMs) || 0,
    appVersion: String(raw.appVersion ?? ''),
    backups: Array.isArray(raw.backups) ? raw.backups.filter((dir) => typeof dir === 'string') : [],
  };
}

export async function writeStartMarker(stateDir: string, marker: StartMarker): Promise<void> {
  await writeFileAtomic(startMarkerPath(stateDir), `${JSON.stringify(marker, null, 2)}\n`);
}

export async function clearStartMarker(stateDir: string): Promise<void> {
  await rm(startMarkerPath(stateDir), { force: true });
}
