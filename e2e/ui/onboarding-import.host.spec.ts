import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { hermesKeys, writeHermesFixture } from '../../src-main/import/testing/hermes-fixture.js';
import { openClawKeys, writeOpenClawFixture } from '../../src-main/import/testing/openclaw-fixture.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { shootEveryVariant } from './docs-screenshots.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 22's "a button in onboarding when one is found": the real composed host, with an
// OpenClaw home and a Hermes home in each tool's on-disk layout (the import tests' fixture
// trees) where the host looks for them. Onboarding offers the import, shows the dry run
// (nothing written yet), imports, and the imported model and agents appear without a reload.
// Nothing leaves the machine: the test host refuses non-loopback fetches (host.refusedRequests).
// The OpenClaw home points its providers at a loopback fake that accepts only its keys, so what
// was imported is used for real; the Hermes home keeps the real services' URLs, and the auth
// view's probes of them show the refusal.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
const docsShots = process.env.HEARTH_DOCS_SCREENSHOTS === '1';
const docsDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

interface ImportHost {
  host: TestHost;
  home: string;
  /** The loopback provider the OpenClaw fixture points at (when it was asked for). */
  llm?: FakeLlmServer;
  hearthJson(): Promise<string>;
  close(): Promise<void>;
}

/**
 * A fresh Hearth home (no provider) beside the other tools' homes, found through their own env
 * names. `served`: the OpenClaw home's providers are a loopback fake that knows only its keys.
 */
async function startImportHost(tools: { openclaw?: 'served' | 'real-urls'; hermes?: boolean }): Promise<ImportHost> {
  const temp = await createTempHome('hearth-e2e-import-');
  const hearthHome = join(temp.home, 'hearth');
  const openclawDir = join(temp.home, 'dot-openclaw');
  const hermesDir = join(temp.home, 'dot-hermes');
  const llm =
    tools.openclaw === 'served' ? await startFakeLlmServer({ acceptKeys: Object.values(openClawKeys) }) : undefined;
  let host: TestHost | undefined;
  const close = async () => {
    await host?.close();
    await llm?.close();
    await temp.cleanup();
  };
  try {
    if (tools.openclaw)
      await writeOpenClawFixture(openclawDir, llm ? { baseUrlFor: (kind) => llm.baseUrlFor(kind) } : {});
    if (tools.hermes) await writeHermesFixture(hermesDir);
    await mkdir(hearthHome, { recursive: true });
    await writeFile(join(hearthHome, 'hearth.json'), JSON.stringify({ memory: { recall: { enabled: false } } }));
    host = await startTestHost({
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
      ...(llm ? { llm } : {}),
      hearthJson: () => readFile(join(hearthHome, 'hearth.json'), 'utf8'),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The import plan and report: docs/screenshots in light and dark at both sizes with
 * HEARTH_DOCS_SCREENSHOTS=1, else one test artifact. `focus`: the report's first line.
 */
async function shoot(page: Page, ui: ControlUiPage, name: 'plan' | 'result', focus: Locator, language: 'en' | 'zh') {
  if (!docsShots) return ui.screenshot(`onboarding-import-${name}-${language}`);
  await shootEveryVariant(page, {
    path: (device, scheme) => `${docsDir}onboarding-import-${name}-${device}-${scheme}-${language}.png`,
    // The report at the top of the window: its first line, the list and its buttons in view.
    arrange: () => focus.evaluate((line) => line.scrollIntoView({ block: 'start' })),
  });
}

test.describe('import from OpenClaw in onboarding', () => {
  let run: ImportHost;
  test.beforeAll(async () => {
    run = await startImportHost({ openclaw: 'served' });
  });
  test.afterAll(() => run?.close());

  test('found → dry run (nothing written) → Import → its model, agents and keys work', async ({ page }) => {
    const llm = run.llm!;
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
    await shoot(page, ui, 'plan', plan, 'en');

    await offer.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(plan).toContainText(/Imported \d+, failed 0/);
    await expect(offer.locator('.import-item.imported').first()).toBeVisible();
    await shoot(page, ui, 'result', plan, 'en');

    const saved = await run.hearthJson();
    for (const key of Object.values(openClawKeys)) expect(saved).not.toContain(key);
    const config = JSON.parse(saved);
    // openclaw.json's models.providers came over as written (here: the loopback fake).
    expect(config.providers).toMatchObject({
      anthropic: { kind: 'anthropic', baseURL: llm.baseUrlFor('anthropic') },
      openrouter: { kind: 'openai-compatible', baseURL: llm.baseUrlFor('openai-compatible') },
      deepseek: { kind: 'openai-compatible', baseURL: llm.baseUrlFor('openai-compatible') },
    });
    // The imported model chain and agents reach the picker and the switcher live.
    await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue('anthropic/claude-opus-4-6');
    await expect(
      page.getByRole('combobox', { name: 'Agent' }).locator('option', { hasText: 'Dev helper' }),
    ).toHaveCount(1);
    await offer.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome to Hearth' })).toHaveCount(0);

    // The first message goes to the imported Anthropic with the imported key (the fake refuses others).
    await ui.send('Hello from OpenClaw');
    await expect(ui.transcript).toContainText('echo: Hello from OpenClaw');
    expect(llm.requests.map((r) => [r.path, r.keyTail])).toEqual([
      ['/anthropic/v1/messages', openClawKeys.anthropic.slice(-4)],
    ]);

    // Its keys are auth profiles now (in the secret store), and each works where it was imported to.
    await ui.go('auth');
    await expect(page.getByRole('textbox', { name: 'Profiles of deepseek, in the order to try them' })).toHaveValue(
      'openclaw-deepseek',
    );
    await expect(page.getByTestId('auth-probe')).toHaveText(Array(3).fill(/works, 3 models listed/));
    expect(run.host.refusedRequests).toEqual([]);
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
    // Finding, planning and importing needed no network.
    expect(run.host.refusedRequests).toEqual([]);

    await ui.go('auth');
    await expect(page.getByRole('textbox', { name: 'Profiles of lab-vllm, in the order to try them' })).toHaveValue(
      'hermes-lab-vllm',
    );
    // Opening the view probes each key at the URL Hermes had (real services): refused on the
    // machine, shown as unreachable, and the fixture keys went nowhere.
    const refused = [
      'http://10.0.0.5:8000/v1/models',
      'https://api.anthropic.com/v1/models',
      'https://openrouter.ai/api/v1/models',
    ];
    const probes = page.getByTestId('auth-probe');
    await expect(probes).toHaveCount(refused.length);
    for (const url of refused)
      await expect(
        probes.filter({ hasText: `cannot reach ${new URL(url).host}: test host refused a request to ${url}` }),
      ).toHaveCount(1);
    expect([...run.host.refusedRequests].sort()).toEqual(refused);
  });
});

test.describe('the import report in Chinese', () => {
  let run: ImportHost;
  test.beforeAll(async () => {
    run = await startImportHost({ openclaw: 'served' });
  });
  test.afterAll(() => run?.close());

  test('plan and report read in Chinese and fit a phone', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'zh-CN' });
    const page = await context.newPage();
    try {
      const ui = new ControlUiPage(page);
      await page.goto(`${run.host.url}/?view=chat#token=${encodeURIComponent(run.host.token)}`);
      await expect(page.getByRole('heading', { name: '欢迎使用 Hearth' })).toBeVisible();
      const offer = page.locator('.import-offer');
      await expect(offer).toContainText('找到了 OpenClaw');
      await page.getByRole('button', { name: '从 OpenClaw 导入…' }).click();
      const plan = offer.getByRole('status');
      await expect(offer.locator('.import-item.import').first()).toContainText('新');
      // Each reason is worded from its code (the gateway's English stays for the CLI): a one-shot
      // job whose time passed and a channel login read in Chinese, with no English reason left.
      const skipped = offer.locator('.import-item.skipped');
      await expect(skipped.filter({ hasText: 'Old reminder' })).toContainText('一次性任务，时间已过');
      await expect(skipped.filter({ hasText: 'channels.telegram' })).toContainText(
        '频道登录无法迁移，请用 `hearth channels add telegram` 重新连接',
      );
      await expect(offer.locator('.import-item.import').filter({ hasText: 'openclaw-deepseek' })).toContainText(
        '密钥存入密钥库，不写入 hearth.json',
      );
      await expect(offer).not.toContainText(/is not moved|has passed|goes to the secret store/);
      await shoot(page, ui, 'plan', plan, 'zh');
      await offer.getByRole('button', { name: '导入', exact: true }).click();
      await expect(plan).toContainText(/已导入 \d+ 项，失败 0 项/);
      await shoot(page, ui, 'result', plan, 'zh');
      // On a phone nothing of the report reaches past the screen's edge.
      await page.setViewportSize({ width: 390, height: 844 });
      for (const part of [
        plan,
        ...(await offer.locator('.import-item').all()),
        offer.getByRole('button', { name: '完成' }),
      ])
        expect(await ui.overflowRight(part)).toBe(0);
      expect(run.host.refusedRequests).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
