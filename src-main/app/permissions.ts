import { isSameOrigin } from './app-origin.js';

/** The parts of Electron's Session the policy sets. */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (webContents: unknown, permission: string, requestingOrigin: string) => boolean,
  ): void;
}

/**
 * What our own pages may use without asking: writing to the clipboard (copy
 * buttons). Camera, microphone, location, notifications (main shows those), USB,
 * HID and the rest are refused for every origin, so a compromised page gains nothing.
 */
const grantedToApp = new Set(['clipboard-sanitized-write']);

export function isPermissionGranted(permission: string, requestingUrl: string, appOrigin: string): boolean {
  return grantedToApp.has(permission) && isSameOrigin(requestingUrl, appOrigin);
}

export function denyPermissionsByDefault(session: PermissionSession, appOrigin: string): void {
  session.setPermissionRequestHandler((webContents, permission, callback) => {
    const url = (webContents as { getURL?: () => string } | null)?.getURL?.() ?? '';
    callback(isPermissionGranted(permission, url, appOrigin));
  });
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin, appOrigin),
  );
}
