import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// The built UI served by the real composed host (startHearth) on a temp HEARTH_HOME:
// the same bundle, the real gateway, the real config and canvas routes.
const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

let host: TestHost;
test.beforeAll(async () => {
  host = await startTestHost({ controlUiDir: uiDir });
});
test.afterAll(async () => {
  await host?.close();
});

test('connects with the gateway token from the URL fragment and drops it from the address bar', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'settings');
  expect(page.url()).not.toContain('token=');
  // A reload keeps working: the token was kept in storage.
  await page.reload();
  await expect(ui.connectionBadge.filter({ hasText: 'Connected' }).first()).toBeVisible();
});

test('settings: the real config loads, a schema error shows inline, a valid change saves', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'settings');
  await page.getByRole('tab', { name: 'Config file' }).click();
  const editor = page.getByRole('textbox', { name: 'Config file' });
  // A fresh HEARTH_HOME has no config file yet: the editor starts from an empty object.
  await expect(editor).toHaveValue(/\{/);
  const original = await editor.inputValue();
  await editor.fill(JSON.stringify({ gateway: { port: 'eighteen' } }, null, 2));
  await page.getByRole('button', { name: 'Save' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('gateway');
  await expect(editor).toHaveAttribute('aria-invalid', 'true');
  await ui.screenshot('host-settings-error');

  const parsed = JSON.parse(original || '{}') as Record<string, unknown>;
  await editor.fill(JSON.stringify({ ...parsed, ui: { theme: 'system' } }, null, 2));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved')).toBeVisible();
});

test('canvas: what the agent wrote is shown sandboxed, and reloads', async ({ page }) => {
  const canvasDir = join(host.paths.workspaceDir('main'), 'canvas');
  await mkdir(canvasDir, { recursive: true });
  await writeFile(join(canvasDir, 'index.html'), '<!doctype html><h1 id="t">First draft</h1>');
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'canvas');
  await expect(ui.canvasFrame.locator('#t')).toHaveText('First draft');
  await writeFile(join(canvasDir, 'index.html'), '<!doctype html><h1 id="t">Second draft</h1>');
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(ui.canvasFrame.locator('#t')).toHaveText('Second draft');
  const origin = await ui.canvasFrame
    .locator('body')
    .evaluate(() => (globalThis as unknown as { origin: string }).origin);
  expect(origin).toBe('null');
  await ui.screenshot('host-canvas');
});

test.describe('phone width', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
  test('the tab bar works against the real gateway', async ({ page }) => {
    const ui = new ControlUiPage(page);
    await ui.open(host.url, host.token, 'chat');
    await expect(page.getByRole('navigation', { name: 'Tabs' })).toBeVisible();
    await ui.go('settings');
    await expect(ui.heading('Settings')).toBeVisible();
    await ui.screenshot('host-phone-settings');
  });
});

test('a wrong token is refused with the gateway reason', async ({ page }) => {
  await page.goto(`${host.url}/#token=not-the-token`);
  await expect(page.getByRole('alert')).toContainText(/token/i);
  await page.getByLabel('Gateway token').fill(host.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.locator('output.badge').filter({ hasText: 'Connected' }).first()).toBeVisible();
});
