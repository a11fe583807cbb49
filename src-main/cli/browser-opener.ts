import { spawn } from 'node:child_process';

export type OpenResult = { ok: true } | { ok: false; reason: string };

/** Opens a URL in the person's browser; never throws. Injected into the CLI so tests see what would open. */
export type UrlOpener = (url: string) => Promise<OpenResult>;

export interface PlatformOpenerInput {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

/**
 * The command that opens a URL on this platform: `$BROWSER` when set (the Unix convention,
 * also how tests substitute a recorder), else `open` (macOS), `explorer.exe` (Windows, which
 * unlike `start` needs no shell quoting of `&` and `#`), else `xdg-open` — only with a display.
 */
export function openerCommand(input: PlatformOpenerInput): { command: string; args: string[] } | { reason: string } {
  // $BROWSER may list several (a:b) and carry options; the first is used, split on spaces, no shell.
  const browser = input.env.BROWSER?.split(':')[0]?.trim();
  if (browser) {
    const [command, ...args] = browser.split(/\s+/);
    return { command: command!, args };
  }
  if (input.platform === 'darwin') return { command: 'open', args: [] };
  if (input.platform === 'win32') return { command: 'explorer.exe', args: [] };
  if (!input.env.DISPLAY && !input.env.WAYLAND_DISPLAY)
    return { reason: 'no display: neither DISPLAY nor WAYLAND_DISPLAY is set' };
  return { command: 'xdg-open', args: [] };
}

/** How long an opener that keeps running (some xdg-open setups wait for the browser) is given to fail. */
const SETTLE_MS = 3000;

export function createPlatformOpener(input: PlatformOpenerInput): UrlOpener {
  return (url) =>
    new Promise<OpenResult>((resolve) => {
      const chosen = openerCommand(input);
      if ('reason' in chosen) return resolve({ ok: false, reason: chosen.reason });
      // The URL is one argv entry, never a shell string: nothing in it is interpreted.
      const child = spawn(chosen.command, [...chosen.args, url], { stdio: 'ignore', detached: true, env: input.env });
      let settled = false;
      const finish = (result: OpenResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.unref();
        resolve(result);
      };
      const timer = setTimeout(() => finish({ ok: true }), SETTLE_MS);
      child.on('error', (error: NodeJS.ErrnoException) =>
        finish({
          ok: false,
          reason:
            error.code === 'ENOENT' ? `${chosen.command} is not installed` : `${chosen.command}: ${error.message}`,
        }),
      );
      child.on('exit', (code) =>
        // explorer.exe answers 1 even when it opened the page.
        finish(
          code === 0 || input.platform === 'win32'
            ? { ok: true }
            : { ok: false, reason: `${chosen.command} exited with code ${code}` },
        ),
      );
    });
}
