import type { Clock, Disposable, Logger } from '../base/index.js';
import type { KeptInstaller, KeptInstallers } from './kept-installers.js';

/**
 * The slice of electron-updater's `AppUpdater` (autoUpdater) this uses. Written
 * against the interface so it is tested here without electron-updater installed;
 * main.ts passes the real `autoUpdater`.
 */
export interface AppUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowPrerelease: boolean;
  allowDowngrade: boolean;
  channel: string | null;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-downloaded', listener: (info: { version: string; downloadedFile?: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export type UpdateChannel = 'stable' | 'beta';

export const UPDATE_INTERVAL_MS = 24 * 60 * 60 * 1000;

export interface AutoUpdateDeps {
  updater: AppUpdaterLike;
  /** `app.isPackaged`: in development there is nothing to update. */
  isPackaged: boolean;
  channel: UpdateChannel;
  clock: Clock;
  /** Asks the user; true restarts now. Nobody is restarted without saying yes. */
  askToRestart(version: string): Promise<boolean>;
  /** Where each downloaded installer is kept, so the version running now can be gone back to later. */
  kept?: KeptInstallers;
  logger: Logger;
}

export interface AutoUpdates extends Disposable {
  readonly enabled: boolean;
  checkNow(): Promise<void>;
}

/**
 * Checks on start and daily, downloads in the background, asks before restarting
 * (once per downloaded version; if the user says later, it installs on quit).
 * Update failures (offline, rate-limited feed) are logged, never shown as errors.
 */
export function startAutoUpdates(deps: AutoUpdateDeps): AutoUpdates {
  const log = deps.logger.child({ component: 'updater' });
  if (!deps.isPackaged) {
    log.info('auto-update disabled in development');
    return { enabled: false, checkNow: async () => {}, dispose() {} };
  }
  const { updater } = deps;
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.allowDowngrade = false;
  updater.allowPrerelease = deps.channel === 'beta';
  // electron-builder publishes latest*.yml for stable and beta*.yml for beta.
  updater.channel = deps.channel === 'beta' ? 'beta' : 'latest';

  let disposed = false;
  const asked = new Set<string>();
  updater.on('error', (error) => log.warn('update check failed', { error: error.message }));
  updater.on('update-downloaded', ({ version, downloadedFile }) => {
    if (disposed || asked.has(version)) return;
    asked.add(version);
    // Kept before the question: a yes installs at once, and its installer is the way back later.
    const keeping =
      deps.kept && downloadedFile
        ? deps.kept.keep(version, downloadedFile).then(
            (kept) => log.info('kept the installer for going back', { version, file: kept.file }),
            (error: unknown) =>
              log.warn('could not keep the installer for going back', { version, error: String(error) }),
          )
        : Promise.resolve();
    keeping
      .then(() => deps.askToRestart(version))
      .then((restart) => {
        if (restart && !disposed) updater.quitAndInstall(false, true);
      })
      .catch((error: unknown) => log.warn('could not ask about the update', { error: String(error) }));
  });

  const checkNow = async () => {
    if (disposed) return;
    try {
      await updater.checkForUpdates();
    } catch (error) {
      log.warn('update check failed', { error: String(error) });
    }
  };
  void checkNow();
  const daily = deps.clock.setInterval(() => void checkNow(), UPDATE_INTERVAL_MS);
  return {
    enabled: true,
    checkNow,
    dispose() {
      disposed = true;
      daily.dispose();
    },
  };
}

/** The restart question, as Electron message box options. */
export function restartPromptOptions(version: string) {
  return {
    type: 'info' as const,
    title: 'Update ready',
    message: `Hearth ${version} is ready to install.`,
    detail: 'Restart now to finish updating, or later: it installs when you quit.',
    buttons: ['Restart now', 'Later'],
    defaultId: 0,
    cancelId: 1,
    noLink: true,
  };
}

/** The message box options the going-back questions use (a subset of Electron's). */
export interface GoBackMessage {
  type: 'info' | 'warning' | 'error';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: boolean;
}

export interface GoBackDeps {
  kept: KeptInstallers;
  runningVersion: string;
  /** Shows Electron message box options; resolves to the index of the button pressed. */
  ask(options: GoBackMessage): Promise<number>;
  /** `shell.openPath`: resolves to '' when the installer started, else the error. */
  openInstaller(file: string): Promise<string>;
  quit(): void;
  logger: Logger;
}

export type GoBackOutcome = 'nothing-kept' | 'cancelled' | 'installer-started' | 'installer-failed';

/**
 * Help → Go Back to the Previous Version…: runs the kept installer of the version this one updated
 * from, after a confirmation whose default is Cancel. The data folder is not touched here: an older
 * Hearth refuses files a newer one upgraded, by name, and docs/UPGRADES.md says how to restore the
 * backup that upgrade made.
 */
export async function goBackToPreviousVersion(deps: GoBackDeps): Promise<GoBackOutcome> {
  let previous: KeptInstaller | undefined;
  try {
    previous = await deps.kept.previous(deps.runningVersion);
  } catch (error) {
    await deps.ask(
      goBackMessage('error', 'Could not read the kept versions', String((error as Error).message ?? error)),
    );
    return 'installer-failed';
  }
  if (!previous) {
    await deps.ask(
      goBackMessage(
        'info',
        'No earlier version is kept on this computer',
        `Hearth keeps the installer of each version it updates to, so it can go back one step. Hearth ${deps.runningVersion} was not installed by an update here; install an earlier release from the project's Releases page instead.`,
      ),
    );
    return 'nothing-kept';
  }
  const answer = await deps.ask({
    type: 'warning',
    title: 'Go back to the previous version',
    message: `Go back to Hearth ${previous.version}?`,
    detail: `Hearth will quit and run the installer of ${previous.version}, kept when this computer updated to it. If ${deps.runningVersion} upgraded your data, the older version refuses those files by name: restore the backup the upgrade made (docs/UPGRADES.md).`,
    buttons: ['Cancel', `Go back to ${previous.version}`],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  });
  if (answer !== 1) return 'cancelled';
  const failure = await deps.openInstaller(previous.file);
  if (failure) {
    deps.logger.warn('the kept installer did not start', { file: previous.file, error: failure });
    await deps.ask(
      goBackMessage('error', `The installer of ${previous.version} did not start`, `${previous.file}: ${failure}`),
    );
    return 'installer-failed';
  }
  deps.quit();
  return 'installer-started';
}

function goBackMessage(type: 'info' | 'error', message: string, detail: string): GoBackMessage {
  return {
    type,
    title: 'Go back to the previous version',
    message,
    detail,
    buttons: ['OK'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}
