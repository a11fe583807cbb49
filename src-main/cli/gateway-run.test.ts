import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateGatewayToken } from '../gateway/auth/gateway-secret.js';
import { createTempHome } from '../testing/temp-home.js';
import { openerCommand } from './browser-opener.js';
import { signInUrl } from './commands/gateway.js';

// A real process from the TypeScript sources: slow to start on a busy machine.
const SPAWN_TIMEOUT = 120_000;
const hearthBin = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));

let temp: { home: string; cleanup(): Promise<void> };
let child: ChildProcess | undefined;
beforeEach(async () => {
  temp = await createTempHome();
});
afterEach(async () => {
  // Only the gateway this test started, by its own handle.
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  child = undefined;
  await temp.cleanup();
});

/** Runs the real `hearth gateway run` and collects its output until `until` has appeared in it. */
async function gatewayRun(args: string[], env: Record<string, string>, until: RegExp) {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['BROWSER', 'DISPLAY', 'WAYLAND_DISPLAY'].includes(name)),
  );
  child = spawn(process.execPath, [hearthBin, 'gateway', 'run', '--port', '0', ...args], {
    env: { ...base, HEARTH_HOME: temp.home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (until.test(stdout + stderr)) resolve();
    };
    child!.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      check();
    });
    child!.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      check();
    });
    child!.once('exit', (code) => reject(new Error(`gateway exited (${code}) before ${until}: ${stdout}${stderr}`)));
  });
  const { token } = await loadOrCreateGatewayToken(join(temp.home, 'identity'));
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
  return { stdout, stderr, token, url };
}

describe('hearth gateway run', () => {
  it(
    'never prints the token by default; without a browser it says how to sign in, naming real commands',
    async () => {
      const run = await gatewayRun(['--open'], {}, /Could not open a browser.*\n/);
      expect(run.stdout + run.stderr).not.toContain(run.token);
      expect(run.stdout).toContain(`Control UI:  ${run.url}/\n`);
      expect(run.stderr).toContain(
        `Could not open a browser (no display: neither DISPLAY nor WAYLAND_DISPLAY is set). Open ${run.url}/ and paste the token from \`hearth gateway token\`, or start with \`hearth gateway run --print-url\` for a sign-in link.`,
      );
    },
    SPAWN_TIMEOUT,
  );

  it(
    'opens the signed-in Control UI in the browser without printing the link',
    async () => {
      const opened = join(temp.home, 'opened.txt');
      const browser = join(temp.home, 'fake-browser.sh');
      await writeFile(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
      await chmod(browser, 0o755);

      const quiet = await gatewayRun(['--open'], { BROWSER: browser }, /Opened the Control UI in your browser/);
      expect(quiet.stdout + quiet.stderr).not.toContain(quiet.token);
      expect(await readFile(opened, 'utf8')).toBe(`${quiet.url}/#token=${encodeURIComponent(quiet.token)}`);
    },
    SPAWN_TIMEOUT,
  );

  it(
    'prints the sign-in link when asked with --print-url',
    async () => {
      const loud = await gatewayRun(['--print-url'], {}, /do not share it/);
      expect(loud.stdout).toContain(`Control UI:  ${loud.url}/#token=${encodeURIComponent(loud.token)}\n`);
    },
    SPAWN_TIMEOUT,
  );
});

describe('platform opener', () => {
  it('prefers $BROWSER (first of a list, options split without a shell), then the platform command', () => {
    expect(openerCommand({ platform: 'linux', env: { BROWSER: 'firefox --new-tab:chromium' } })).toEqual({
      command: 'firefox',
      args: ['--new-tab'],
    });
    expect(openerCommand({ platform: 'darwin', env: {} })).toEqual({ command: 'open', args: [] });
    expect(openerCommand({ platform: 'win32', env: {} })).toEqual({ command: 'explorer.exe', args: [] });
    expect(openerCommand({ platform: 'linux', env: { DISPLAY: ':0' } })).toEqual({ command: 'xdg-open', args: [] });
    expect(openerCommand({ platform: 'linux', env: {} })).toEqual({
      reason: 'no display: neither DISPLAY nor WAYLAND_DISPLAY is set',
    });
  });
});

describe('sign-in link', () => {
  it('carries the token in the fragment, and reaches a listener on every interface over loopback', () => {
    expect(signInUrl({ url: 'http://127.0.0.1:18790', token: 'a/b+c' })).toBe(
      'http://127.0.0.1:18790/#token=a%2Fb%2Bc',
    );
    expect(signInUrl({ url: 'https://0.0.0.0:18791', token: 't' })).toBe('https://127.0.0.1:18791/#token=t');
    expect(signInUrl({ url: 'https://[::]:18791', token: 't' })).toBe('https://127.0.0.1:18791/#token=t');
  });
});
