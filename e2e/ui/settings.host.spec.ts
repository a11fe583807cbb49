import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { type FakeLlmServer, startFakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 22's settings on the real composed host: theme and language are this device's and survive
// a reload; a form edit of an exec setting lands in hearth.json, and a value the server's schema
// refuses is shown naming its field while the file keeps what it had.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
test.beforeAll(async () => {
  llm = await startFakeLlmServer();
  temp = await createTempHome('hearth-e2e-settings-');
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
      agents: { defaults: { model: 'openai/gpt-4o' } },
      memory: { recall: { enabled: false } },
    }),
  );
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    env: { ...process.env, HEARTH_SECRET_STORE: 'file' },
  });
});
test.afterAll(async () => {
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});

const hearthJson = async () => JSON.parse(await readFile(join(temp.home, 'hearth.json'), 'utf8'));

test('settings: theme and language are remembered across a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'settings');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByLabel('Language').selectOption('zh');
  await expect(page.getByRole('heading', { name: '设置' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: '设置' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByLabel('主题')).toHaveValue('dark');
  await page.getByLabel('语言').selectOption('en');
  await page.getByLabel('Theme').selectOption('system');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('settings: a form edit reaches hearth.json, and a bad value is refused naming the field', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'settings');
  // The forms are per tab (Commands, Memory & Dreaming); an opened tab keeps its edits, one Save each.
  await page.locator('#settings-tab-exec').click();
  await page.getByLabel(/^Which commands may run/).selectOption('deny');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  await page.locator('#settings-tab-memory').click();
  await page.getByLabel(/^Dreaming memory\.dreaming\.enabled/).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect.poll(async () => (await hearthJson()).tools?.exec?.security).toBe('deny');
  const saved = await hearthJson();
  expect(saved.tools.exec.security).toBe('deny');
  expect(saved.memory.dreaming.enabled).toBe(true);
  // Everything the form did not touch is kept as written.
  expect(saved.memory.recall.enabled).toBe(false);
  expect(saved.agents.defaults.model).toBe('openai/gpt-4o');

  await page.locator('#settings-tab-exec').click();
  const env = page.getByLabel(/^Environment variables commands see/);
  await env.fill('LANG, not a name!');
  await page.getByRole('button', { name: 'Save' }).click();
  // Checked against the schema's pattern before anything is sent, naming the entry.
  const error = page.getByRole('alert').filter({ hasText: 'tools.exec.envPassthrough.1' });
  await expect(error).toBeVisible();
  await expect(env).toHaveAttribute('aria-invalid', 'true');
  // Nothing half-written: the file is what the last good save wrote.
  expect(await hearthJson()).toEqual(saved);
});
