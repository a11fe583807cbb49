import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ControlUiPage } from './pages/control-ui-page.js';
import { type PreviewGateway, startPreviewGateway } from './preview-gateway.js';

// The built UI against a loopback stand-in gateway with rich data: every view, both
// themes, desktop and phone. Flows that need capabilities the real host lacks live here.
const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

let gateway: PreviewGateway;
test.beforeAll(async () => {
  gateway = await startPreviewGateway({ uiDir });
});
test.afterAll(async () => {
  await gateway.close();
});

test('chat: a sent message streams back as markdown', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'chat');
  await expect(ui.transcript.getByText('The build fails because')).toBeVisible();
  await ui.send('show me a shell example');
  await expect(ui.transcript.getByText('Anything else?')).toBeVisible();
  await expect(ui.transcript.locator('.tok-string', { hasText: '"hello from Hearth"' })).toBeVisible();
  await ui.screenshot('chat-light');
});

test('approvals: a flagged command is allowed from the UI with the keyboard', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'approvals');
  gateway.requestApproval('ap-1', 'rm -rf ./dist && npm run build');
  await expect(ui.approvalCards).toHaveCount(1);
  await expect(ui.approvalCards.first()).toContainText('rm -rf deletes files recursively');
  await expect(ui.approvalCards.first()).toContainText('Adds to the allowlist: /usr/bin/rm ^-rf ./dist$');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByTestId('nav-approvals')).toContainText('1');
  await ui.screenshot('approvals');
  await page.keyboard.press('a');
  await expect(page.getByText('No commands are waiting for approval.')).toBeVisible();
  await expect(page.getByText('Allow once by Control UI')).toBeVisible();
  expect(gateway.calls('exec.approval.resolve')).toEqual([{ id: 'ap-1', decision: 'allow-once' }]);
});

test('auth profiles: cooldown shows a live countdown and the reason', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'auth');
  const personal = ui.profile('Personal');
  await expect(personal.getByRole('timer')).toHaveText(/Back in 1:[0-2]\d/);
  await expect(personal).toContainText('HTTP 429');
  const first = await personal.getByRole('timer').textContent();
  await expect(personal.getByRole('timer')).not.toHaveText(first ?? '');
  await expect(ui.profile('Old key')).toContainText('How to fix');
  await expect(ui.profile('Old key')).toContainText('HTTP 401');
  await ui.screenshot('auth-profiles');
});

test('memory: search highlights the planted note, dated, with its score breakdown in the tooltip', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'memory');
  await ui.searchMemory('green tea');
  await expect(ui.memoryHits).toHaveCount(1);
  await expect(ui.memoryHits.first().locator('mark')).toHaveText(['green', 'tea']);
  // A dated note; the score and its parts are in the tooltip, not on its face.
  await expect(ui.memoryHits.first().getByTestId('memory-note')).toHaveAttribute(
    'title',
    'Relevance 0.87 (vector 0.81 · text 0.92 · decay 0.99)',
  );
  await ui.screenshot('memory');
});

test('dreams: the diary renders and candidates show their signals', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'dreams');
  await expect(ui.heading('Night of 29 November')).toBeVisible();
  await ui.screenshot('dreams-diary');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('tab', { name: 'Phase reports' }).click();
  await expect(page.getByText(/Recurring themes: offline models \(3\)/)).toBeVisible();
  await ui.screenshot('dreams-phases');
  await page.getByRole('tab', { name: /Promotion candidates/ }).click();
  await page.getByRole('button', { name: 'Why?' }).first().click();
  await expect(page.getByText('score 0.91 ≥ threshold 0.75')).toBeVisible();
  await ui.screenshot('dreams-candidates');
});

test('canvas: the sandboxed page reloads when the agent rewrites it', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'canvas');
  await expect(ui.canvasFrame.locator('#rev')).toHaveText('Revision 1');
  gateway.rewriteCanvas();
  await expect(ui.canvasFrame.locator('#rev')).toHaveText('Revision 2');
  // The sandbox gives the page an opaque origin: it cannot reach the app's storage.
  const origin = await page
    .frameLocator('[data-testid="canvas-frame"]')
    .locator('body')
    .evaluate(() => (globalThis as unknown as { origin: string }).origin);
  expect(origin).toBe('null');
  await ui.screenshot('canvas');
});

test('terminal: typed input is echoed back through the gateway', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'terminal');
  await expect(ui.terminal).toContainText('sam@hearth');
  await ui.terminal.click();
  await page.keyboard.type('echo hi');
  await expect(ui.terminal).toContainText('echo hi');
  await ui.screenshot('terminal');
});

test('devices and settings render, and a config schema error shows inline', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(gateway.url, gateway.token, 'devices');
  await expect(page.getByText('Pixel 9')).toBeVisible();
  await ui.screenshot('devices');
  await ui.go('settings');
  // Settings opens on General (this device's look and the common form); the model list is under Providers.
  await page.getByRole('tab', { name: 'Providers & models' }).click();
  await expect(page.getByText('anthropic/claude-sonnet-4', { exact: true })).toBeVisible();
  await ui.screenshot('settings');
  await page.getByRole('tab', { name: 'Advanced' }).click();
  const editor = page.getByRole('textbox', { name: 'Config file' });
  await editor.fill(JSON.stringify({ gateway: { port: 'eighteen' } }));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText('gateway.port');
  await ui.screenshot('settings-config-error');
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });
  test('chat and approvals in dark', async ({ page }) => {
    const ui = new ControlUiPage(page);
    await ui.open(gateway.url, gateway.token, 'chat');
    await expect(ui.transcript.getByText('The build fails because')).toBeVisible();
    await ui.screenshot('chat-dark');
    await ui.go('memory');
    await expect(ui.heading('MEMORY.md')).toBeVisible();
    await ui.screenshot('memory-dark');
  });
});

test.describe('phone width', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
  test('bottom tabs replace the sidebar and reach every view', async ({ page }) => {
    const ui = new ControlUiPage(page);
    await ui.open(gateway.url, gateway.token, 'chat');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Tabs' })).toBeVisible();
    await expect(ui.transcript.getByText('The build fails because')).toBeVisible();
    await ui.screenshot('phone-chat');
    await ui.go('approvals');
    await expect(ui.heading('Approvals')).toBeVisible();
    await ui.go('devices');
    await expect(ui.heading('Devices')).toBeVisible();
    await ui.screenshot('phone-devices');
  });
});

test('a wrong token shows the token prompt with the reason', async ({ page }) => {
  await page.goto(`${gateway.url}/#token=wrong`);
  await expect(page.getByText('unauthorized: gateway token mismatch')).toBeVisible();
  await page.getByLabel('Gateway token').fill(gateway.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.locator('output.badge').filter({ hasText: 'Connected' }).first()).toBeVisible();
});
