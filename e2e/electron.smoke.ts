import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';

// The real desktop app, started by Playwright's Electron driver: window, preload
// bridge, IPC to the in-process gateway, hardening. It needs the Electron binary
// (`npx install-electron` after `npm ci`, with internet) and a display
// (`xvfb-run -a` on Linux CI). Without the binary it skips and says why.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mainEntry = join(root, 'dist/src-main/app/main.js');

/** The Electron executable, read the way `require('electron')` does, without its download side effect. */
function electronBinary(): { path?: string; reason?: string } {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const pathFile = join(root, 'node_modules/electron/path.txt');
  if (!override && !existsSync(pathFile)) {
    return {
      reason:
        'the Electron binary is not installed (node_modules/electron/path.txt is missing; run `npx install-electron`)',
    };
  }
  const relative = override ? undefined : readFileSync(pathFile, 'utf8').trim();
  const path = override ? join(override, 'electron') : join(root, 'node_modules/electron/dist', relative ?? '');
  if (!existsSync(path)) return { reason: `the Electron binary is missing at ${path}` };
  if (!existsSync(mainEntry)) return { reason: `${mainEntry} is missing: run \`npm run build\`` };
  return { path };
}

const binary = electronBinary();
if (binary.reason) console.log(`electron smoke test skipped: ${binary.reason}`);

test.describe('Electron app (smoke)', () => {
  test.skip(!binary.path, binary.reason ?? '');

  test('starts, shows the Control UI connected over the preload bridge, and quits cleanly', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hearth-electron-smoke-'));
    const app = await electron.launch({
      executablePath: binary.path,
      args: [mainEntry, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
      env: { ...process.env, HEARTH_HOME: home, HEARTH_SECRET_STORE: 'file' },
      timeout: 60_000,
    });
    try {
      const window = await app.firstWindow();
      await expect(window).toHaveTitle(/Hearth/);
      expect(new URL(window.url()).protocol).toBe('app:');

      // The bridge is exactly the frame forwarder; no Node or Electron in the page.
      const surface = await window.evaluate(() => {
        const scope = globalThis as unknown as Record<string, unknown>;
        return {
          keys: Object.keys((scope.hearth ?? {}) as object).sort(),
          hasRequire: typeof scope.require,
          hasProcess: typeof scope.process,
        };
      });
      expect(surface.keys).toEqual(['gatewayUrl', 'gateways', 'onFrame', 'onGatewaysChange', 'send', 'version']);
      expect([surface.hasRequire, surface.hasProcess]).toEqual(['undefined', 'undefined']);

      await expect(window.locator('output.badge', { hasText: 'Connected' }).first()).toBeAttached({ timeout: 30_000 });

      // Locked to the app: window.open gives no new Electron window (file: is refused outright).
      const opened = await window.evaluate(() => {
        const scope = globalThis as unknown as { open(url: string): unknown };
        return scope.open('file:///etc/hosts') === null;
      });
      expect(opened).toBe(true);
      expect(app.windows()).toHaveLength(1);
    } finally {
      await app.evaluate(({ app: electronApp }) => electronApp.quit()).catch(() => {});
      await app.close().catch(() => {});
      rmSync(home, { recursive: true, force: true });
    }
  });
});
