import type { Logger } from '../base/index.js';
import { type DeepLink, DeepLinkError, findDeepLinkArg, parseDeepLink } from './deep-links.js';

/** The parts of Electron's `app` the lock needs. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean;
  on(
    event: 'second-instance',
    listener: (event: unknown, argv: string[], workingDirectory: string, additionalData: unknown) => void,
  ): unknown;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  quit(): void;
}

export interface SingleInstanceDeps {
  /** This process's command line (process.argv), read at the edge. */
  argv: readonly string[];
  /** Bring the existing window forward. */
  focus(): void;
  /** A valid link arrived (second launch, macOS open-url or our own argv). */
  openLink(link: DeepLink): void;
  /** A link arrived that we cannot use; the message says why. */
  badLink(message: string): void;
  /** The wall clock (ms), so an expired pairing code is refused with that reason. */
  now(): number;
  logger: Logger;
}

export interface SingleInstance {
  /** False: another Hearth is running and got our link; this process is quitting. */
  readonly primary: boolean;
  /** The link this process was launched with, if any (handled once the window exists). */
  readonly launchLink: string | undefined;
  /** Hands a raw link to the right handler. */
  handle(raw: string): void;
}

/**
 * One Hearth per user: the gateway port, the sessions and the keychain belong to
 * one process. A second launch passes its deep link to the first (both via
 * additionalData and its argv, which Windows/Linux use) and quits; the first comes
 * to the front and opens the link.
 */
export function claimSingleInstance(app: SingleInstanceApp, deps: SingleInstanceDeps): SingleInstance {
  const launchLink = findDeepLinkArg(deps.argv);
  const handle = (raw: string): void => {
    try {
      deps.openLink(parseDeepLink(raw, deps.now()));
    } catch (error) {
      if (!(error instanceof DeepLinkError)) throw error;
      deps.logger.warn('ignored a bad hearth:// link', { reason: error.message });
      deps.badLink(error.message);
    }
  };

  const primary = app.requestSingleInstanceLock(launchLink ? { deepLink: launchLink } : {});
  if (!primary) {
    app.quit();
    return { primary, launchLink, handle };
  }

  app.on('second-instance', (_event, argv, _cwd, additionalData) => {
    deps.focus();
    const link = linkFromAdditionalData(additionalData) ?? findDeepLinkArg(argv);
    if (link) handle(link);
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deps.focus();
    handle(url);
  });
  return { primary, launchLink, handle };
}

function linkFromAdditionalData(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const link = (data as { deepLink?: unknown }).deepLink;
  return typeof link === 'string' ? link : undefined;
}

/** The renderer route a link opens (hash routes, so the page is not reloaded). */
export function routeForDeepLink(link: DeepLink): string {
  if (link.kind === 'session') return `#/sessions/${encodeURIComponent(link.sessionKey)}`;
  return `#/pair?${new URLSearchParams({ code: link.code }).toString()}`;
}
