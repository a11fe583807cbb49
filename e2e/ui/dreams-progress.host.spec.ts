import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, test } from '@playwright/test';
import type { DreamRunView } from '../../src-main/protocol/methods/dreams.js';
import { plantRecalls } from '../../src-main/testing/planted-recalls.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { shootEveryVariant } from './docs-screenshots.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 22's "the Dreams view shows progress and results" on the real composed host: a run
// started from the view goes phase by phase to its result; a run another Hearth process is making
// (as `hearth memory promote` does: it writes only its run file) shows live, is still there after a
// reload mid-run, and a phase that fails shows its error where it failed. Ingest (the day's
// conversations filed into today's notes) is the first phase; a run whose process lives but stopped
// moving shows as stalled, with its pid and since when, and Clear stalled run ends it.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
const docsShots = process.env.HEARTH_DOCS_SCREENSHOTS === '1';
const docsDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

const day = (back: number) => {
  const d = new Date(Date.now() - back * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const notesPath = `memory/${day(1)}.md`;

let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
/** Stands in for the other Hearth process: alive, so its run reads as going, not interrupted. */
let other: ChildProcess;
const stateDir = () => join(temp.home, 'workspace', 'memory', '.dreams');

test.beforeAll(async () => {
  temp = await createTempHome('hearth-e2e-dreams-progress-');
  await writeFile(join(temp.home, 'hearth.json'), JSON.stringify({ memory: { recall: { enabled: false } } }));
  const workspace = join(temp.home, 'workspace');
  await mkdir(join(workspace, 'memory'), { recursive: true });
  await writeFile(join(workspace, 'MEMORY.md'), '# Memory\n');
  await writeFile(
    join(workspace, notesPath),
    '- [preference] Matcha at the airport lounge\n- [fact] Bins go out on Tuesday\n',
  );
  await plantRecalls(
    workspace,
    [
      { text: 'Matcha at the airport lounge', path: notesPath, line: 1 },
      { text: 'Bins go out on Tuesday', path: notesPath, line: 2 },
    ],
    new Date(),
  );
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    env: { ...process.env, HEARTH_SECRET_STORE: 'file' },
  });
  other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
});
test.afterAll(async () => {
  other?.kill();
  await host?.close();
  await temp?.cleanup();
});

/** Writes the run file as a Dreaming run in another process does (renamed into place). */
async function otherProcessRun(run: DreamRunView) {
  const temp = join(stateDir(), '.run-e2e.tmp');
  await writeFile(temp, JSON.stringify({ version: 1, pid: other.pid, run }));
  await rename(temp, join(stateDir(), 'run.json'));
}

const phase = (page: Page, name: string) => page.getByTestId('dreams-run').locator(`[data-phase="${name}"]`);

async function setLanguage(page: Page, ui: ControlUiPage, language: 'en' | 'zh') {
  await ui.go('settings');
  await page.locator('#settings-tab-general').click();
  await page.locator('#setting-language').selectOption(language);
}

/** One screen at 1280×800 and 390×844, light and dark, en and zh (docs mode), else one artifact. */
async function shoot(page: Page, ui: ControlUiPage, name: string, show: () => Promise<Locator>) {
  if (!docsShots) {
    await (await show()).scrollIntoViewIfNeeded();
    return ui.screenshot(`dreams-progress-${name}`);
  }
  for (const language of ['en', 'zh'] as const) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await setLanguage(page, ui, language);
    const focus = await show();
    await shootEveryVariant(page, {
      path: (device, scheme) => `${docsDir}${name}-${device}-${scheme}-${language}.png`,
      arrange: () => focus.evaluate((el) => el.scrollIntoView({ block: 'start' })),
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await setLanguage(page, ui, 'en');
  await show();
}

test('dreams progress: a run from the view goes phase by phase to its result', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'dreams');
  await page.getByRole('button', { name: 'Apply' }).click();
  const run = page.getByTestId('dreams-run');
  await expect(run).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(run.getByRole('list', { name: 'Phases of the run' }).getByRole('listitem')).toHaveCount(5);
  for (const name of ['ingest', 'light', 'rem', 'deep', 'write'])
    await expect(phase(page, name)).toHaveAttribute('data-state', 'done');
  // No conversation today: ingest read none.
  await expect(phase(page, 'ingest')).toContainText("0 of 0 conversations filed into today's notes");
  await expect(phase(page, 'light')).toContainText('1 of 1 daily note files read');
  await expect(phase(page, 'write')).toContainText('5 of 5 files written');
  await expect(run).toContainText('started here');
  await expect(page.getByTestId('dreams-result')).toContainText('2 promoted into MEMORY.md');
  await expect(page.getByTestId('dreams-result')).toContainText('Matcha at the airport lounge');
  expect(await readFile(join(temp.home, 'workspace', 'MEMORY.md'), 'utf8')).toContain('- Matcha at the airport lounge');
  await shoot(page, ui, 'dreams-result', async () => {
    await ui.go('dreams');
    return page.getByTestId('dreams-run');
  });
});

test('dreams progress: another process’s run shows live, survives a reload mid-run, and a failed phase shows its error', async ({
  page,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'dreams');
  await expect(page.getByTestId('dreams-run')).toHaveAttribute('data-state', 'done');
  const startedAt = Date.now();
  const midRun: DreamRunView = {
    id: 'cli-run',
    mode: 'review',
    origin: 'cli',
    state: 'running',
    startedAt,
    updatedAt: startedAt,
    phases: [
      { name: 'ingest', state: 'done', done: 3, total: 3 },
      { name: 'light', state: 'done', done: 14, total: 14 },
      { name: 'rem', state: 'done', done: 9, total: 9 },
      { name: 'deep', state: 'running', done: 4, total: 9 },
      { name: 'write', state: 'waiting' },
    ],
  };
  await otherProcessRun(midRun);
  const run = page.getByTestId('dreams-run');
  await expect(run).toHaveAttribute('data-state', 'running');
  await expect(run).toContainText('started from hearth memory promote');
  await expect(phase(page, 'deep')).toContainText('4 of 9 candidates checked');
  await expect(phase(page, 'ingest')).toContainText("3 of 3 conversations filed into today's notes");
  await expect(page.getByRole('button', { name: 'Run now' })).toBeDisabled();

  // A reload in the middle: the view reads the run going now from dreams.status.
  await page.reload();
  await expect(page.getByTestId('dreams-run')).toHaveAttribute('data-state', 'running');
  await expect(phase(page, 'deep')).toHaveAttribute('data-state', 'running');
  await expect(phase(page, 'deep')).toContainText('4 of 9 candidates checked');
  await expect(page.getByTestId('dreams-result')).toHaveCount(0);
  await shoot(page, ui, 'dreams-progress', async () => {
    await ui.go('dreams');
    return page.getByTestId('dreams-run');
  });

  const error = 'memory/.dreams/pending.json is not valid JSON (Unexpected token n); fix or delete it';
  await otherProcessRun({
    ...midRun,
    state: 'failed',
    endedAt: Date.now(),
    error,
    phases: [
      midRun.phases[0]!,
      midRun.phases[1]!,
      midRun.phases[2]!,
      { name: 'deep', state: 'failed', done: 4, total: 9, error },
      { name: 'write', state: 'waiting' },
    ],
  });
  await expect(phase(page, 'deep')).toHaveAttribute('data-state', 'failed');
  await expect(phase(page, 'deep').getByRole('alert')).toHaveText(error);
  await expect(page.getByTestId('dreams-run')).toContainText('Last run failed');
  await expect(page.getByRole('button', { name: 'Run now' })).toBeEnabled();
  await shoot(page, ui, 'dreams-failed', async () => {
    await ui.go('dreams');
    return page.getByTestId('dreams-run');
  });
});

test('dreams progress: a run that stopped moving shows as stalled, and Clear stalled run ends it', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'dreams');
  await expect(page.getByTestId('dreams-run')).toHaveAttribute('data-state', /done|failed/);
  // Another process's run, alive, whose heartbeat is 20 minutes old (hung in a model call).
  const lastBeat = Date.now() - 20 * 60_000;
  await otherProcessRun({
    id: 'hung-run',
    mode: 'apply',
    origin: 'cli',
    state: 'running',
    startedAt: lastBeat - 90_000,
    updatedAt: lastBeat,
    phases: [
      { name: 'ingest', state: 'done', done: 2, total: 2 },
      { name: 'light', state: 'done', done: 6, total: 6 },
      { name: 'rem', state: 'running', done: 3, total: 8 },
      { name: 'deep', state: 'waiting' },
      { name: 'write', state: 'waiting' },
    ],
  });
  const run = page.getByTestId('dreams-run');
  await expect(run).toHaveAttribute('data-state', 'stalled');
  await expect(phase(page, 'rem')).toHaveAttribute('data-state', 'stalled');
  await expect(run).toContainText('Stalled: no progress since');
  const stalled = page.getByTestId('dreams-stalled');
  await expect(stalled).toContainText(`Process ${other.pid} still holds this run`);
  await expect(page.getByRole('button', { name: 'Run now' })).toBeDisabled();
  // A reload reads it as stalled too (dreams.status judges the heartbeat).
  await page.reload();
  await expect(page.getByTestId('dreams-stalled')).toBeVisible();
  await shoot(page, ui, 'dreams-stalled', async () => {
    await ui.go('dreams');
    return page.getByTestId('dreams-run');
  });

  await page.getByRole('button', { name: 'Clear stalled run' }).click();
  await expect(run).toHaveAttribute('data-state', 'failed');
  await expect(run).toContainText(`cleared: it stalled (pid ${other.pid} still running`);
  await expect(page.getByTestId('dreams-stalled')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run now' })).toBeEnabled();
  const file = JSON.parse(await readFile(join(stateDir(), 'run.json'), 'utf8')) as { run: DreamRunView };
  expect(file.run).toMatchObject({ id: 'hung-run', state: 'failed', clearedAt: expect.any(Number) });
});
