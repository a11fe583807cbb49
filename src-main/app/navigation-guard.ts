import type { Logger } from '../base/index.js';
import { isExternalWebUrl, isSameOrigin } from './app-origin.js';

interface PreventableEvent {
  preventDefault(): void;
}

/** The parts of Electron's WebContents the guard hooks. */
export interface GuardedWebContents {
  on(event: 'will-navigate', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface NavigationGuardDeps {
  /** Pages may only ever show this origin (see app-origin.ts). */
  appOrigin: string;
  /** `shell.openExternal`: links to the web open in the user's browser instead. */
  openExternal: (url: string) => Promise<void>;
  logger: Logger;
}

/**
 * Keeps the window on the app: a link or script can neither navigate it away nor
 * open a new Electron window (which would inherit nothing of our hardening). Web
 * links go to the system browser; every other scheme (file:, javascript:, custom
 * protocol handlers) is refused outright.
 */
export function guardNavigation(webContents: GuardedWebContents, deps: NavigationGuardDeps): void {
  const log = deps.logger.child({ component: 'navigation-guard' });

  const sendOut = (url: string): void => {
    if (isExternalWebUrl(url)) {
      deps.openExternal(url).catch((error: unknown) => log.warn('could not open link', { url, error: String(error) }));
    } else {
      log.warn('refused to open a non-web link', { url });
    }
  };

  const keepOnApp = (event: PreventableEvent, url: string): void => {
    if (isSameOrigin(url, deps.appOrigin)) return;
    event.preventDefault();
    sendOut(url);
  };

  webContents.on('will-navigate', keepOnApp);
  webContents.on('will-redirect', keepOnApp);
  webContents.on('will-attach-webview', (event) => event.preventDefault());
  webContents.setWindowOpenHandler(({ url }) => {
    sendOut(url);
    return { action: 'deny' };
  });
}
