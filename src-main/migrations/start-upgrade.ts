import { relative } from 'node:path';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { HearthPaths } from '../paths/index.js';
import type { UpgradesStatus } from '../protocol/methods/gateway.js';
import { inspectHome, migrateHome, refuseNewerFormats } from './migrate-home.js';
import { readBackup, restoreBackup } from './migration-backup.js';
import type { StoreFormat } from './store-format.js';
import { hearthStoreFormats } from './store-formats.js';
import {
  clearStartMarker,
  readStartMarker,
  readUpgradeState,
  type UpgradeEvent,
  type UpgradeState,
  writeStartMarker,
  writeUpgradeState,
} from './upgrade-state.js';

/** The formats of a home and what the last starts did to them (`hearth doctor`, `status.upgrades`). */
export type UpgradeReport = UpgradesStatus;

export interface StartUpgrade {
  /** The report as of this start (after any restore or migration). */
  readonly report: UpgradeReport;
  /** Call once the gateway is up: the start marker goes, and this start is the last good one. */
  markUp(): Promise<void>;
}

export interface StartUpgradeDeps {
  paths: HearthPaths;
  clock: Pick<Clock, 'now'>;
  log: Logger;
  appVersion: string;
  formats?: readonly StoreFormat[];
}

/** Two starts in a row that never came up: the third restores what their migrations changed. */
const CRASHED_STARTS_BEFORE_RESTORE = 2;

/**
 * Runs before anything reads the home (start-hearth.ts). In order: a home whose last two starts
 * never came up gets the backups their migrations made put back; a file from a newer Hearth
 * stops the start (NewerFormatError); older files are migrated with a backup first, and a failed
 * migration is undone and the start goes on with the files as they were. Each outcome is logged
 * and kept in `state/upgrades.json`.
 */
export async function prepareStartUpgrade(deps: StartUpgradeDeps): Promise<StartUpgrade> {
  const { paths, log, appVersion } = deps;
  const formats = deps.formats ?? hearthStoreFormats;
  const state = await readUpgradeState(paths.stateDir);
  let marker = await readStartMarker(paths.stateDir);
  const event = (kind: UpgradeEvent['kind'], message: string, extra: Partial<UpgradeEvent> = {}): UpgradeEvent => ({
    kind,
    atMs: deps.clock.now(),
    appVersion,
    message,
    ...extra,
  });

  if (marker && marker.attempts >= CRASHED_STARTS_BEFORE_RESTORE) {
    const backups = [];
    for (const dir of marker.backups) {
      const backup = await readBackup(dir);
      if (backup) backups.push(backup);
    }
    // Newest first, so the oldest backup (the state before the first crashed start) ends on disk.
    for (const backup of [...backups].reverse()) await restoreBackup(paths.home, backup);
    if (backups.length > 0) {
      const names = backups.map((backup) => relative(paths.home, backup.dir));
      state.lastEvent = event(
        'crash-restored',
        `Hearth did not finish starting ${marker.attempts} times in a row after an upgrade; the files the upgrade changed were restored from ${names.join(', ')} and this version will not migrate them again`,
        { backups: names, attempts: marker.attempts },
      );
      state.held = { appVersion, reason: 'its migrated files crashed two starts in a row' };
      log.error('two starts in a row never came up: restored the backup of their migration', { backups: names });
    } else {
      state.lastEvent = event(
        'crash-nothing-to-restore',
        `Hearth did not finish starting ${marker.attempts} times in a row; no upgrade changed any file since the last good start, so there was nothing to restore (see the log)`,
        { attempts: marker.attempts },
      );
      log.warn('two starts in a row never came up; no migration backup since the last good start', {
        attempts: marker.attempts,
      });
    }
    marker = undefined;
    await writeUpgradeState(paths.stateDir, state);
  }

  let copies = await inspectHome(paths, formats);
  refuseNewerFormats(paths.home, copies);
  const nextMarker = {
    attempts: (marker?.attempts ?? 0) + 1,
    startedAtMs: deps.clock.now(),
    appVersion,
    backups: marker?.backups ?? [],
  };
  await writeStartMarker(paths.stateDir, nextMarker);

  const held = state.held?.appVersion === appVersion;
  const older = copies.filter((copy) => !copy.unreadable && copy.version < copy.format.current);
  if (older.length > 0 && held) {
    log.warn('migrations held for this version (they crashed it before); starting with the files as they are', {
      files: older.map((copy) => relative(paths.home, copy.path)),
    });
  } else if (older.length > 0) {
    const outcome = await migrateHome({ paths, copies, now: deps.clock.now(), appVersion });
    if (outcome.kind === 'migrated') {
      const name = relative(paths.home, outcome.backup.dir);
      const files = outcome.migrated.map((copy) => `${copy.path} v${copy.from}→v${copy.to}`);
      state.lastEvent = event('migrated', `Upgraded ${files.join(', ')}; the files as they were are in ${name}`, {
        backups: [name],
        files,
      });
      nextMarker.backups = [...nextMarker.backups, outcome.backup.dir];
      await writeStartMarker(paths.stateDir, nextMarker);
      log.info('migrated on-disk formats', { migrated: outcome.migrated, backup: outcome.backup.dir });
    } else if (outcome.kind === 'failed') {
      const name = relative(paths.home, outcome.backup.dir);
      state.lastEvent = event(
        'migration-failed',
        `An upgrade of ${outcome.migrated.map((copy) => copy.path).join(', ')} failed (${outcome.error.message}); every file was restored from ${name} and Hearth started with them as they were`,
        { backups: [name], error: outcome.error.message, files: outcome.migrated.map((copy) => copy.path) },
      );
      log.error('migration failed; restored the backup and starting with the previous files', {
        error: outcome.error.message,
        backup: outcome.backup.dir,
      });
    }
    await writeUpgradeState(paths.stateDir, state);
    copies = await inspectHome(paths, formats);
  }

  const report: UpgradeReport = { ...reportOf(paths, copies), ...reportState(state) };
  return {
    report,
    async markUp() {
      await clearStartMarker(paths.stateDir);
      const now = await readUpgradeState(paths.stateDir);
      now.lastGoodStartMs = deps.clock.now();
      now.lastGoodAppVersion = appVersion;
      if (now.held && now.held.appVersion !== appVersion) delete now.held;
      await writeUpgradeState(paths.stateDir, now);
    },
  };
}

/** What `hearth doctor` shows without starting anything: versions on disk and the last events. */
export async function readUpgradeReport(
  paths: HearthPaths,
  formats: readonly StoreFormat[] = hearthStoreFormats,
): Promise<UpgradeReport> {
  return {
    ...reportOf(paths, await inspectHome(paths, formats)),
    ...reportState(await readUpgradeState(paths.stateDir)),
  };
}

function reportOf(paths: HearthPaths, copies: Awaited<ReturnType<typeof inspectHome>>): Pick<UpgradeReport, 'formats'> {
  return {
    formats: copies.map((copy) => ({
      format: copy.format.id,
      label: copy.format.label,
      path: relative(paths.home, copy.path),
      version: copy.version,
      current: copy.format.current,
      explicit: copy.explicit,
      ...(copy.unreadable ? { unreadable: copy.unreadable } : {}),
    })),
  };
}

function reportState(state: UpgradeState): Omit<UpgradeReport, 'formats'> {
  return {
    ...(state.lastEvent ? { lastEvent: state.lastEvent } : {}),
    ...(state.held ? { held: state.held } : {}),
    ...(state.lastGoodStartMs ? { lastGoodStartMs: state.lastGoodStartMs } : {}),
    ...(state.lastGoodAppVersion ? { lastGoodAppVersion: state.lastGoodAppVersion } : {}),
  };
}
