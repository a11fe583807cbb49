import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, expect, type Page, test } from '@playwright/test';
import type { FakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import type { TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';
import { type RealHostWithFakeModel, startRealHostWithFakeModel } from './real-host-with-fake-model.js';

// Issue 22: "a desktop does not see messages a phone sent" and "tool output appears only after a
// reload". A desktop has the chat open; a phone (a second browser with its own device key) writes
// in the same chat. The desktop shows the phone's message, the tool call with its output and the
// answer as they happen, in order, once each, with no reload. Real composed host, fake model only.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

let real: RealHostWithFakeModel;
let llm: FakeLlmServer;
let host: TestHost;
test.beforeAll(async () => {
  real = await startRealHostWithFakeModel({
    homePrefix: 'hearth-e2e-chat-devices-',
    controlUiDir: uiDir,
    secret: 'sk-e2e-devices-EEEE',
  });
  ({ llm, host } = real);
});
test.afterAll(async () => {
  await real?.close();
});
test.beforeEach(() => {
  llm.reset();
});

test.describe.configure({ mode: 'serial' });

/** The phone: a phone-sized browser of its own (its own storage, so its own device key). */
async function openPhone(browser: Browser): Promise<{ page: Page; ui: ControlUiPage; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  return { page, ui, close: () => context.close() };
}

/** The text of each of the person's messages, in transcript order. */
const userMessages = (ui: ControlUiPage) => ui.transcript.getByRole('article', { name: 'You' }).locator('.msg-plain');
const answers = (ui: ControlUiPage) => ui.transcript.getByRole('article', { name: 'Hearth' });

test('a message sent from the phone shows live on the desktop, with its tool output and the answer', async ({
  page,
  browser,
}) => {
  const workspace = host.paths.workspaceDir('main');
  await mkdir(join(workspace, 'notes'), { recursive: true });
  await writeFile(join(workspace, 'notes', 'packing.txt'), 'Pack the blue tent and two headlamps.\n');
  llm.script([
    { type: 'tool_calls', calls: [{ name: 'read', input: { path: 'notes/packing.txt' } }] },
    { type: 'text', text: 'Your list says: the blue tent and two headlamps.' },
  ]);

  const desktop = new ControlUiPage(page);
  await desktop.open(host.url, host.token, 'chat');
  await expect(desktop.transcript.or(page.getByText('Start a conversation.'))).toBeVisible();
  const phone = await openPhone(browser);
  try {
    await phone.ui.send('What is on my packing list?');
    await expect(phone.ui.transcript.getByText('Your list says: the blue tent and two headlamps.')).toBeVisible({
      timeout: 20_000,
    });

    // The desktop never reloaded: everything arrived over its open connection.
    await expect(userMessages(desktop)).toHaveText(['What is on my packing list?'], { timeout: 20_000 });
    await expect(desktop.transcript.getByText('Your list says: the blue tent and two headlamps.')).toBeVisible({
      timeout: 20_000,
    });
    await expect(await desktop.toolOutput('notes/packing.txt')).toContainText('Pack the blue tent and two headlamps.');
    // In the order it happened: the phone's message, the tool call, then the answer; each once.
    const rows = desktop.transcript.locator('.transcript-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('What is on my packing list?');
    await expect(rows.nth(1).locator('details.tool-call')).toContainText('notes/packing.txt');
    await expect(rows.nth(2)).toContainText('Your list says');
    await expect(answers(desktop)).toHaveCount(1);

    // The phone shows its own message once too (its send and the transcript's echo are one message).
    await expect(userMessages(phone.ui)).toHaveText(['What is on my packing list?']);
    await expect(await phone.ui.toolOutput('notes/packing.txt')).toContainText('Pack the blue tent');

    // The desktop answers back in the same chat; the phone sees that live in turn.
    llm.script({ type: 'text', text: 'Headlamps are in the garage.' });
    await desktop.send('And where are the headlamps?');
    await expect(phone.ui.transcript.getByText('Headlamps are in the garage.')).toBeVisible({ timeout: 20_000 });
    await expect(userMessages(phone.ui)).toHaveText(['What is on my packing list?', 'And where are the headlamps?']);
    await expect(userMessages(desktop)).toHaveText(['What is on my packing list?', 'And where are the headlamps?']);
    expect(llm.requests).toHaveLength(3);

    // A reload shows the same transcript: what arrived live is what was stored.
    await page.reload();
    await expect(userMessages(desktop)).toHaveText(['What is on my packing list?', 'And where are the headlamps?'], {
      timeout: 20_000,
    });
    await expect(answers(desktop)).toHaveCount(2);
    await expect(await desktop.toolOutput('notes/packing.txt')).toContainText('Pack the blue tent');
  } finally {
    await phone.close();
  }
});

test('a phone message that waits on an approval shows on the desktop while it waits, and its output lands live', async ({
  page,
  browser,
}) => {
  const command = 'basename /e2e/devices-approved-output';
  llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: 'The check printed its name.' },
  ]);
  const desktop = new ControlUiPage(page);
  await desktop.open(host.url, host.token, 'chat');
  const phone = await openPhone(browser);
  try {
    // A fresh chat on the phone; the desktop opens it from its list as soon as it appears.
    await phone.page.keyboard.press('Control+Shift+O');
    await expect(phone.ui.composer).toBeFocused();
    await phone.ui.send('Run the name check from my phone');
    const list = page.getByRole('complementary', { name: 'Sessions' });
    await list.getByRole('button', { name: 'Run the name check from my phone', exact: true }).click();

    // The request waits inline on the desktop, under the phone's message.
    await expect(userMessages(desktop)).toHaveText(['Run the name check from my phone'], { timeout: 20_000 });
    const card = desktop.transcript.getByTestId('inline-approval').filter({ hasText: command });
    await expect(card).toBeVisible({ timeout: 20_000 });
    await card.getByRole('button', { name: /Allow once/ }).click();

    await expect(desktop.transcript.getByText('The check printed its name.')).toBeVisible({ timeout: 20_000 });
    await expect(await desktop.toolOutput(command)).toHaveText(/^devices-approved-output\s+\[exit code 0\]$/);
    await expect(await phone.ui.toolOutput(command)).toHaveText(/^devices-approved-output\s+\[exit code 0\]$/);
    await expect(userMessages(desktop)).toHaveCount(1);
  } finally {
    await phone.close();
  }
});
