import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import {
  type FakeModelHost,
  readModelFiles,
  servedCatalogueEntry,
  startFakeModelHost,
} from '../../src-main/testing/fake-model-host.js';
import { writeOnnxModelFixture } from '../../src-main/testing/onnx-model-fixture.js';
import { plantRecalls } from '../../src-main/testing/planted-recalls.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 13 in the Control UI, on the real composed host: a person turns on search by meaning from
// the Memory view (a generated model served by a loopback stand-in for Hugging Face), and reviews
// Dreaming's promotions as MEMORY.md diffs in the Dreams view, approving one and rejecting one.
const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

const FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'];
const MINE = '# Memory\n\nWritten by me.\n';
const day = (back: number) => {
  const d = new Date(Date.now() - back * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const notesPath = `memory/${day(1)}.md`;

let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
let models: FakeModelHost;
test.beforeAll(async () => {
  temp = await createTempHome('hearth-e2e-memory-');
  const source = await mkdtemp(join(tmpdir(), 'hearth-e2e-model-'));
  const model = await writeOnnxModelFixture(source);
  models = await startFakeModelHost(await readModelFiles(model.dir, FILES));
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      memory: {
        models: [servedCatalogueEntry(models, 'tiny-encoder', FILES)],
        dreaming: { review: true },
      },
    }),
  );
  const workspace = join(temp.home, 'workspace');
  await mkdir(join(workspace, 'memory'), { recursive: true });
  await writeFile(join(workspace, 'MEMORY.md'), MINE);
  await writeFile(
    join(workspace, notesPath),
    '- [preference] Matcha at the airport lounge\n- [fact] The garden hose leaks near the tomatoes\n',
  );
  await plantRecalls(
    workspace,
    [
      { text: 'Matcha at the airport lounge', path: notesPath, line: 1 },
      { text: 'The garden hose leaks near the tomatoes', path: notesPath, line: 2 },
    ],
    new Date(),
  );
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    env: { ...process.env, HEARTH_SECRET_STORE: 'file' },
  });
});
test.afterAll(async () => {
  await host?.close();
  await models?.close();
  await temp?.cleanup();
});

test('memory: install a local model from the Memory view, watch it download, then search by meaning', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'memory');
  await expect(ui.memoryModels).toContainText('Memory searches by words, offline.');
  const tiny = ui.memoryModel('tiny-encoder');
  await tiny.getByRole('button', { name: 'Install' }).click();
  // The install reports itself as memory.changed events; the card follows them to the end.
  await expect(tiny.getByText('In use')).toBeVisible({ timeout: 60_000 });
  const states = ui.events
    .filter((e) => e.event === 'memory.changed' && e.payload.reason === 'model')
    .map((e) => (e.payload.model as { state: string }).state);
  expect(states).toContain('downloading');
  expect(states).toContain('installed');
  await expect(ui.memoryModels).toContainText(/Memory searches by words and by meaning \(onnx:tiny-encoder@/, {
    timeout: 60_000,
  });
  const config = JSON.parse(await readFile(join(temp.home, 'hearth.json'), 'utf8'));
  expect(config.memory.embedder).toEqual({ kind: 'onnx', modelDir: join(temp.home, 'models', 'tiny-encoder') });
  // "chai" shares no letters with the matcha note: only the installed model's vectors connect them.
  await expect
    .poll(
      async () => {
        await ui.searchMemory('chai');
        return (
          (await ui.memoryHits
            .first()
            .textContent({ timeout: 5_000 })
            .catch(() => '')) ?? ''
        );
      },
      { timeout: 30_000 },
    )
    .toContain('Matcha');
  await ui.screenshot('host-memory-model');
});

test('dreams: review mode queues promotions as diffs; approve writes exactly that one, reject drops the other', async ({
  page,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'dreams');
  await page.getByRole('button', { name: 'Run now' }).click();
  await ui.dreamsTab(/^Review \(2\)$/).click({ timeout: 30_000 });
  await expect(page.getByTestId('dreams-review-mode')).toContainText('Review mode');
  // Nothing the person wrote changed yet.
  const memoryFile = join(temp.home, 'workspace', 'MEMORY.md');
  expect(await readFile(memoryFile, 'utf8')).toBe(MINE);
  const matcha = ui.dreamPending('Matcha at the airport lounge');
  await expect(matcha.getByTestId('dream-diff')).toContainText('+- Matcha at the airport lounge');
  await expect(matcha.getByTestId('dream-diff')).toContainText(' Written by me.');
  await ui.screenshot('host-dreams-review');

  await matcha.getByRole('button', { name: 'Approve' }).click();
  await expect(ui.dreamsPendingList).toHaveCount(1);
  const approved = await readFile(memoryFile, 'utf8');
  expect(approved.startsWith(MINE)).toBe(true);
  expect(approved.slice(MINE.length)).toMatch(
    /^\n## Promoted by Dreaming — \d{4}-\d{2}-\d{2}\n\n- Matcha at the airport lounge\n$/,
  );

  await ui.dreamPending('garden hose').getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('Nothing waits for review.')).toBeVisible();
  await expect(ui.dreamsTab(/^Review \(0\)$/)).toBeVisible();
  expect(await readFile(memoryFile, 'utf8')).toBe(approved);
});
