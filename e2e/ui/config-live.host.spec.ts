import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { type FakeLlmServer, startFakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 22: "A saved config (from the UI or a hand edit) reaches every view live: the model
// picker, the welcome card, the settings; no reload." A first-run home with nothing set up; the
// person then edits hearth.json in their editor while the Control UI stays open.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
test.beforeAll(async () => {
  llm = await startFakeLlmServer({ ollamaModels: ['llama3.2:latest', 'qwen2.5:7b'] });
  temp = await createTempHome('hearth-e2e-config-live-');
  await writeFile(join(temp.home, 'hearth.json'), JSON.stringify({ memory: { recall: { enabled: false } } }));
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    // No OLLAMA_HOST of the machine's: only what hearth.json names.
    env: { ...process.env, HEARTH_SECRET_STORE: 'file', OLLAMA_HOST: 'http://127.0.0.1:9' },
  });
});
test.afterAll(async () => {
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});

// The parts of hearth.json these edits touch; the rest of the file is kept as it is.
interface HandEditedConfig {
  providers?: Record<string, { kind: string; baseURL: string }>;
  agents?: { defaults?: { model?: string } };
}

async function handEdit(change: (config: HandEditedConfig) => void): Promise<void> {
  const path = join(temp.home, 'hearth.json');
  const config = JSON.parse(await readFile(path, 'utf8')) as HandEditedConfig;
  change(config);
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`);
}

test('a hand edit of hearth.json reaches the welcome card, the model picker and Settings without a reload', async ({
  page,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  const welcome = page.getByRole('region', { name: 'Welcome to Hearth' });
  await expect(welcome).toBeVisible();
  const picker = page.getByLabel('Model');

  // The person sets a local model up by hand: the welcome card goes, the picker has it.
  await handEdit((config) => {
    config.providers = { ollama: { kind: 'ollama', baseURL: llm.baseUrlFor('ollama') } };
    config.agents = { defaults: { model: 'ollama/llama3.2:latest' } };
  });
  await expect(welcome).toHaveCount(0, { timeout: 20_000 });
  await expect(picker).toHaveValue('ollama/llama3.2:latest', { timeout: 20_000 });

  // It answers, with no reload in between.
  llm.script({ type: 'text', text: 'Hello from the local model.' });
  await ui.send('Are you there?');
  await expect(ui.transcript.getByText('Hello from the local model.')).toBeVisible({ timeout: 20_000 });
  expect(llm.requests.at(-1)?.model).toBe('llama3.2:latest');

  // Settings shows the file as it is now; a second edit reaches it while it is open.
  await ui.go('settings');
  await page.getByRole('tab', { name: 'Providers & models' }).click();
  await expect(page.locator('.config-tree').first()).toContainText(llm.baseUrlFor('ollama'));
  await handEdit((config) => {
    config.agents = { ...config.agents, defaults: { ...config.agents?.defaults, model: 'ollama/qwen2.5:7b' } };
  });
  const primary = page.locator('.model-list li').filter({ hasText: 'default' });
  await expect(primary.locator('code')).toHaveText('ollama/qwen2.5:7b', { timeout: 20_000 });
  await page.getByRole('tab', { name: 'Advanced' }).click();
  await expect(page.getByRole('textbox', { name: 'Config file' })).toHaveValue(/qwen2\.5:7b/, { timeout: 20_000 });

  // Back in the chat, the picker says the same; the next answer comes from that model.
  await ui.go('chat');
  await expect(picker).toHaveValue('ollama/qwen2.5:7b');
  llm.script({ type: 'text', text: 'Qwen here.' });
  await ui.send('Who is answering?');
  await expect(ui.transcript.getByText('Qwen here.')).toBeVisible({ timeout: 20_000 });
  expect(llm.requests.at(-1)?.model).toBe('qwen2.5:7b');

  // A hand edit that breaks the file changes nothing on screen: the last good config stays.
  await writeFile(join(temp.home, 'hearth.json'), '{ "agents": ');
  await ui.go('settings');
  await page.getByRole('tab', { name: 'Providers & models' }).click();
  await expect(page.locator('.model-list li').filter({ hasText: 'default' }).locator('code')).toHaveText(
    'ollama/qwen2.5:7b',
  );
});
