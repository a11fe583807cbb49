/** The parts of Electron's `app` used for login items. */
export interface LoginItemApp {
  getLoginItemSettings(): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; openAsHidden?: boolean; args?: string[] }): void;
}

/** Passed on the command line when the OS starts us at login, so we start in the tray. */
export const HIDDEN_FLAG = '--hidden';

export function isLaunchAtLoginEnabled(app: LoginItemApp): boolean {
  return app.getLoginItemSettings().openAtLogin;
}

/**
 * Opt-in only: nothing calls this except the user's switch in Settings. Starting
 * at login opens to the tray (no window) so the user's desktop is not interrupted.
 */
export function setLaunchAtLogin(app: LoginItemApp, enabled: boolean): void {
  app.setLoginItemSettings({ openAtLogin: enabled, openAsHidden: enabled, args: enabled ? [HIDDEN_FLAG] : [] });
}

/** Whether this launch came from the login item (Windows/Linux flag; macOS reports it separately). */
export function launchedAtLogin(argv: readonly string[], macWasOpenedAtLogin = false): boolean {
  return macWasOpenedAtLogin || argv.includes(HIDDEN_FLAG);
}
