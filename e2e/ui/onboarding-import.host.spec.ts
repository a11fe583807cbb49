import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { hermesKeys, writeHermesFixture } from '../../src-main/import/testing/hermes-fixture.js';
import { openClawKeys, writeOpenClawFixture } from '../../src-main/import/testing/openclaw-fixture.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 22's "a button in onboarding when one is found": the real composed host, with an
// OpenClaw home and a Hermes home in each tool's on-disk layout (the import tests' fixture
// trees) where the host looks for them. Onboarding offers the import, shows the dry run
// (nothing written yet), imports, and the imported model and agents appear without a reload.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

interface ImportHost {
  host: TestHost;
  home: string;
  hearthJson(): Promise<string>;
  close(): Promise<void>;
}

/** A fresh Hearth home (no provider) beside the other tools' homes, found through their own env names. */
async function startImportHost(tools: { openclaw?: boolean; hermes?: boolean }): Promise<ImportHost> {
  const temp = await createTempHome('hearth-e2e-import-');
  const hearthHome = join(temp.home, 'hearth');
  const openclawDir = join(temp.home, 'dot-openclaw');
  const hermesDir = join(temp.home, 'dot-hermes');
  if (tools.openclaw) await writeOpenClawFixture(openclawDir);
  if (tools.hermes) await writeHermesFixture(hermesDir);
  await mkdir(hearthHome, { recursive: true });
  await writeFile(join(hearthHome, 'hearth.json'), JSON.stringify({ memory: { recall: { enabled: false } } }));
  const host = await startTestHost({
    home: hearthHome,
    controlUiDir: uiDir,
    env: {
      ...process.env,
      HOME: temp.home,
      HEARTH_SECRET_STORE: 'file',
      OPENCLAW_STATE_DIR: openclawDir,
      HERMES_HOME: hermesDir,
      // No local model server either: only the import is on offer besides the form.
      OLLAMA_HOST: '127.0.0.1:9',
      HEARTH_LMSTUDIO_URL: 'http://127.0.0.1:9/v1',
    },
  });
  return {
    host,
    home: hearthHome,
    hearthJson: () => readFile(join(hearthHome, 'hearth.json'), 'utf8'),
    close: async () => {
      await host.close();
      await temp.cleanup();
    },
  };
}

/** The import screens for review (test artifacts; docs/ shows the provider forms). */
const shoot = (ui: ControlUiPage, name: string) => ui.screenshot(`onboarding-import-${name}-en`);

test.describe('import from OpenClaw in onboarding', () => {
  let run: ImportHost;
  test.beforeAll(async () => {
    run = await startImportHost({ openclaw: true });
  });
  test.afterAll(() => run?.close());

  test('found → dry run (nothing written) → Import → its model and agents appear', async ({ page }) => {
    const before = await run.hearthJson();
    const ui = new ControlUiPage(page);
    await ui.open(run.host.url, run.host.token, 'chat');
    await expect(page.getByRole('heading', { name: 'Welcome to Hearth' })).toBeVisible();
    const offer = page.locator('.import-offer');
    await expect(offer).toContainText('Found OpenClaw at');
    // Hermes has no home here, so it is not offered.
    await expect(page.getByRole('button', { name: 'Import from Hermes Agent…' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Import from OpenClaw…' }).click();
    const plan = offer.getByRole('status');
    await expect(plan).toContainText(/Import plan: \d+ to import/);
    await expect(offer.locator('.import-item.import').filter({ hasText: 'SOUL.md' }).first()).toBeVisible();
    await expect(offer.locator('.import-item.import').filter({ hasText: 'deepseek' }).first()).toBeVisible();
    // The dry run wrote nothing and shows no key.
    expect(await run.hearthJson()).toBe(before);
    for (const key of Object.values(openClawKeys)) await expect(offer).not.toContainText(key);
    await shoot(ui, 'plan');

    await offer.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(plan).toContainText(/Imported \d+, failed 0/);
    await expect(offer.locator('.import-item.imported').first()).toBeVisible();
    await shoot(ui, 'result');

    const saved = await run.hearthJson();
    for (const key of Object.values(openClawKeys)) expect(saved).not.toContain(key);
    const config = JSON.parse(saved);
    expect(config.providers.deepseek).toMatchObject({
      kind: 'openai-compatible',
      baseURL: 'https://api.deepseek.com/v1',
    });
    // The imported model chain and agents reach the picker and the switcher live.
    await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue('anthropic/claude-opus-4-6');
    await expect(
      page.getByRole('combobox', { name: 'Agent' }).locator('option', { hasText: 'Dev helper' }),
    ).toHaveCount(1);
    await offer.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome to Hearth' })).toHaveCount(0);
    // Its keys are auth profiles now (in the secret store).
    await ui.go('auth');
    await expect(page.getByRole('textbox', { name: 'Profiles of deepseek, in the order to try them' })).toHaveValue(
      'openclaw-deepseek',
    );
  });
});

test.describe('import from Hermes in onboarding', () => {
  let run: ImportHost;
  test.beforeAll(async () => {
    run = await startImportHost({ hermes: true });
  });
  test.afterAll(() => run?.close());

  test('found → dry run → Import → its model, provider and profile agent appear', async ({ page }) => {
    const before = await run.hearthJson();
    const ui = new ControlUiPage(page);
    await ui.open(run.host.url, run.host.token, 'chat');
    const offer = page.locator('.import-offer');
    await expect(offer).toContainText('Found Hermes Agent at');
    await page.getByRole('button', { name: 'Import from Hermes Agent…' }).click();
    const plan = offer.getByRole('status');
    await expect(plan).toContainText(/Import plan: \d+ to import/);
    // What cannot come over says why (Hermes' SQLite state.db).
    await expect(offer.locator('.import-item.skipped').filter({ hasText: 'state.db' })).toContainText('SQLite');
    expect(await run.hearthJson()).toBe(before);
    for (const key of Object.values(hermesKeys)) await expect(offer).not.toContainText(key);

    await offer.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(plan).toContainText(/Imported \d+, failed 0/);
    const saved = await run.hearthJson();
    for (const key of Object.values(hermesKeys)) expect(saved).not.toContain(key);
    expect(JSON.parse(saved).providers['lab-vllm']).toEqual({
      kind: 'openai-compatible',
      baseURL: 'http://10.0.0.5:8000/v1',
    });
    await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue(
      'openrouter/anthropic/claude-opus-4',
    );
    await expect(page.getByRole('combobox', { name: 'Agent' }).locator('option', { hasText: 'work' })).toHaveCount(1);
    await offer.getByRole('button', { name: 'Done' }).click();
    await ui.go('auth');
    await expect(page.getByRole('textbox', { name: 'Profiles of lab-vllm, in the order to try them' })).toHaveValue(
      'hermes-lab-vllm',
    );
  });
});
