import type { Clock, Disposable, Logger } from '../base/index.js';

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
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
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
  updater.on('update-downloaded', ({ version }) => {
    if (disposed || asked.has(version)) return;
    asked.add(version);
    deps
      .askToRestart(version)
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
