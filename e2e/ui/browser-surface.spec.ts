import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { buildControlUiPolicy } from '../../src-main/protocol/control-ui-policy.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { chromiumArgs, chromiumExecutable } from '../chromium.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// The browser surface as a real Chromium sees it (docs/SECURITY.md): a DNS-rebound page,
// the Control UI's Content-Security-Policy, and where the gateway token does (not) live.
// `rebind.test` resolves to 127.0.0.1, as an attacker's domain does after rebinding.
test.use({
  launchOptions: {
    executablePath: chromiumExecutable,
    args: [...chromiumArgs, '--host-resolver-rules=MAP rebind.test 127.0.0.1'],
  },
});

const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

let host: TestHost;
test.beforeAll(async () => {
  host = await startTestHost({ controlUiDir: uiDir, env: { ...process.env, HEARTH_SECRET_STORE: 'file' } });
  const canvas = join(host.paths.workspaceDir('main'), 'canvas');
  await writeFile(join(canvas, 'index.html'), '<!doctype html><h1 id="c">canvas page</h1>');
  await writeFile(join(canvas, 'private.txt'), 'CANVAS-PRIVATE-CONTENT');
});
test.afterAll(async () => {
  await host?.close();
});

test('a DNS-rebound page reads no canvas file and opens no socket', async ({ page }) => {
  const origin = `http://rebind.test:${host.port}`;
  // After the rebinding the attacker's name points at us: even the page itself is refused...
  const landing = await page.goto(`${origin}/`);
  expect(landing?.status()).toBe(421);
  // ...and from a document of that origin (same origin for the browser), nothing can be read.
  const read = await page.evaluate(async () => {
    const res = await fetch('/__hearth__/canvas/private.txt');
    return { status: res.status, body: await res.text() };
  });
  expect(read.status).toBe(421);
  expect(read.body).not.toContain('CANVAS-PRIVATE-CONTENT');
  const socket = await page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(url);
        ws.onopen = () => resolve('open');
        ws.onerror = () => resolve('refused');
      }),
    `ws://rebind.test:${host.port}/`,
  );
  expect(socket).toBe('refused');
  // The same files under the gateway's own name are there: the refusal is about the name.
  expect((await page.request.get(`${host.url}/__hearth__/canvas/private.txt`)).status()).toBe(200);
});

test('the Control UI runs under the Electron window policy: no inline script runs, the canvas still shows', async ({
  page,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  const ui = new ControlUiPage(page);
  const response = await page.goto(`${host.url}/?view=canvas#token=${encodeURIComponent(host.token)}`);
  expect(response?.headers()['content-security-policy']).toBe(buildControlUiPolicy({ gatewayOrigin: host.url }));
  await ui.connectionBadge.filter({ hasText: 'Connected' }).first().waitFor({ state: 'attached' });
  await expect(page.frameLocator('[data-testid="canvas-frame"]').locator('#c')).toHaveText('canvas page');
  expect(violations).toEqual([]);

  // An injected inline script (what an XSS would add) does not run.
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true';
    document.body.append(script);
    await new Promise((resolve) => setTimeout(resolve, 0));
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
});

test('the gateway token is in no storage a script could read; a reload signs in with the device key', async ({
  page,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'settings');
  expect(page.url()).not.toContain('token=');
  const stored = await page.evaluate(() => ({
    local: Object.entries(localStorage),
    session: Object.entries(sessionStorage),
  }));
  expect(JSON.stringify(stored)).not.toContain(host.token);
  expect(stored.local.map(([key]) => key)).toContain('hearth.deviceToken');

  const sent: string[] = [];
  page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))));
  await page.reload();
  await expect(ui.connectionBadge.filter({ hasText: 'Connected' }).first()).toBeVisible();
  const connect = sent.find((frame) => frame.includes('"method":"connect"'));
  expect(connect).toBeDefined();
  expect(connect).toContain('"deviceToken"');
  expect(sent.join('\n')).not.toContain(host.token);
});
