import { accessSync, constants } from 'node:fs';
import { BrowserError } from './address-check.js';

/** Where a system Chromium usually is (Debian/Ubuntu, Fedora, Chrome's own package). */
export const systemChromiumPaths = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser to launch: the configured one, else the first system Chromium found, else
 * undefined (Playwright's own download, if one was installed). A configured path that is not
 * executable is an error rather than a silent fallback: the person asked for that browser.
 */
export function chooseExecutable(
  configured: string | undefined,
  exists: (path: string) => boolean = isExecutable,
): string | undefined {
  if (configured) {
    if (!exists(configured))
      throw new BrowserError(`tools.browser.executablePath ${configured} is not an executable file`);
    return configured;
  }
  return systemChromiumPaths.find(exists);
}
