import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { type FakeTelegramServer, startFakeTelegramServer } from '../../src-main/testing/fake-telegram-server.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// Issue 14 in the Control UI, on the real composed host: a person sets Telegram up from the
// Channels view's wizard against the fake Bot API server on loopback, sees it connect, approves the
// pairing request of their first message, and links that account to the owner.
// HEARTH_E2E_UI_DIR points at another build of the renderer (default: the one `npm run build` makes).
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

const OWNER = { id: 4242, first_name: 'Olive', username: 'olive' };

let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
let telegram: FakeTelegramServer;
test.beforeAll(async () => {
  temp = await createTempHome('hearth-e2e-channels-');
  telegram = await startFakeTelegramServer();
  await writeFile(join(temp.home, 'hearth.json'), JSON.stringify({ memory: { recall: { enabled: false } } }));
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    env: { ...process.env, HEARTH_SECRET_STORE: 'file' },
  });
});
test.afterAll(async () => {
  await host?.close();
  await telegram?.close();
  await temp?.cleanup();
});

test('channels: set Telegram up from the wizard, approve the first sender, link them to the owner', async ({
  page,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token);
  await page.getByRole('navigation', { name: 'Main' }).getByTestId('nav-channels').click();
  const card = page.getByRole('listitem', { name: 'Telegram' });
  await expect(card.getByTestId('channel-state')).toHaveText('stopped');
  await card.getByRole('button', { name: 'Set up' }).click();

  const wizard = page.getByRole('region', { name: 'Set up Telegram' });
  await expect(wizard).toContainText('@BotFather');
  await wizard.getByLabel(/Bot token/).fill(telegram.token);
  await wizard.getByText('Advanced').click();
  await wizard.getByLabel('Bot API server').fill(telegram.url);
  await wizard.getByLabel('Long-poll timeout (seconds)').fill('1');
  await wizard.getByRole('button', { name: 'Save and test connection' }).click();
  await expect(wizard.getByTestId('setup-test')).toHaveText(`Connected as @${telegram.bot.username}.`, {
    timeout: 30_000,
  });
  await expect(card.getByTestId('channel-state')).toHaveText('connected');
  await ui.screenshot('host-channels-wizard');
  const config = await readFile(join(temp.home, 'hearth.json'), 'utf8');
  expect(config).not.toContain(telegram.token);
  expect(JSON.parse(config).channels.telegram).toEqual({ apiBaseUrl: telegram.url, pollTimeoutSeconds: 1 });

  // The first message from an unknown sender becomes a pairing request, shown live.
  telegram.sendUserMessage({ chatId: OWNER.id, from: OWNER, text: 'hello?' });
  const request = page.getByTestId('pairing-request');
  await expect(request).toContainText('Olive', { timeout: 30_000 });
  await request.getByRole('button', { name: 'Approve' }).click();
  await telegram.waitForBotMessage(OWNER.id, (m) => m.text.includes('You are approved'));
  await expect(page.getByTestId('pairing-request')).toHaveCount(0);

  const links = page.getByRole('region', { name: 'Linked accounts' });
  await expect(links.getByLabel('Paired sender')).toHaveValue(`telegram:${OWNER.id}`);
  await links.getByRole('button', { name: 'Link' }).click();
  await expect(links.getByRole('listitem', { name: 'owner' })).toContainText(`telegram:${OWNER.id}`);
  await ui.screenshot('host-channels-linked');
  const linked = JSON.parse(await readFile(join(temp.home, 'hearth.json'), 'utf8'));
  expect(linked.memory.identityLinks).toEqual({ owner: [`telegram:${OWNER.id}`] });
});
