import { describe, expect, it } from 'vitest';
import { chooseExecutable } from './browser-executable.js';
import { safeFileName } from './browser-session.js';

describe('which browser runs', () => {
  it('takes the configured one, else the first system Chromium, else Playwright’s own', () => {
    const present =
      (...paths: string[]) =>
      (path: string) =>
        paths.includes(path);
    expect(chooseExecutable('/opt/chrome/chrome', present('/opt/chrome/chrome', '/usr/bin/chromium'))).toBe(
      '/opt/chrome/chrome',
    );
    expect(chooseExecutable(undefined, present('/usr/bin/google-chrome', '/usr/bin/chromium-browser'))).toBe(
      '/usr/bin/chromium-browser',
    );
    expect(chooseExecutable(undefined, present())).toBeUndefined();
  });

  it('refuses a configured path that is not there rather than running another browser', () => {
    expect(() => chooseExecutable('/nope/chromium', () => false)).toThrow(
      'tools.browser.executablePath /nope/chromium is not an executable file',
    );
  });
});

describe('download names', () => {
  it('keeps a site’s name but never its folders, leading dots or control characters', () => {
    expect(safeFileName('report.pdf')).toBe('report.pdf');
    expect(safeFileName('../../.bashrc')).toBe('bashrc');
    expect(safeFileName('..\\..\\evil.exe')).toBe('evil.exe');
    expect(safeFileName('a\u0000b:c.txt')).toBe('a_b_c.txt');
    expect(safeFileName('...')).toBe('download');
  });
});
