import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import type { FakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import type { TestHost } from '../../src-main/testing/test-host.js';
import { shootEveryVariant } from './docs-screenshots.js';
import { ControlUiPage } from './pages/control-ui-page.js';
import { type RealHostWithFakeModel, startRealHostWithFakeModel } from './real-host-with-fake-model.js';

// Approvals where the person is (issue 22): the request shows inline in the chat, on every device
// looking at it, and settles everywhere at once; the decision and the output stay in the transcript.
// The real composed host (gateway, exec host, approval service, sessions) on a temp HEARTH_HOME; the
// only fake is the model, a loopback server speaking the OpenAI wire format.
const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';
// With HEARTH_DOCS_SCREENSHOTS=1 the inline cards are written for docs/ (reviewed by eye).
const docsShots = process.env.HEARTH_DOCS_SCREENSHOTS === '1';
const docsDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

let real: RealHostWithFakeModel;
let llm: FakeLlmServer;
let host: TestHost;
test.beforeAll(async () => {
  real = await startRealHostWithFakeModel({
    homePrefix: 'hearth-e2e-inline-approvals-',
    controlUiDir: uiDir,
    secret: 'sk-e2e-inline-DDDD',
  });
  ({ llm, host } = real);
});
test.afterAll(async () => {
  await real?.close();
});
test.beforeEach(() => {
  llm.reset();
});

/** A second device on the same chat: a phone-sized browser of its own (its own device key). */
async function openPhone(
  browser: Browser,
  locale?: string,
): Promise<{ page: Page; ui: ControlUiPage; close(): Promise<void> }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    ...(locale ? { locale } : {}),
  });
  const page = await context.newPage();
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  return { page, ui, close: () => context.close() };
}

/** The inline approval card in a page's transcript, for a command. */
const inlineCard = (ui: ControlUiPage, command: string): Locator =>
  ui.transcript.getByTestId('inline-approval').filter({ hasText: command });

test('a safe command: approved inline with A on the desktop, settled on the phone too, output live and after reload', async ({
  page,
  browser,
}) => {
  const command = 'basename /e2e/inline-safe-output';
  llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: 'The safe check printed its answer.' },
  ]);
  const desktop = new ControlUiPage(page);
  await desktop.open(host.url, host.token, 'chat');
  const phone = await openPhone(browser);
  try {
    await desktop.send('Run the safe check inline');
    // The phone sees what the desktop sent, live.
    await expect(phone.ui.transcript.getByText('Run the safe check inline')).toBeVisible({ timeout: 20_000 });

    const card = inlineCard(desktop, command);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card.getByTestId('approval-risk')).toHaveText('Low risk');
    await expect(card).toContainText(host.paths.workspaceDir('main'));
    await expect(card.getByRole('button', { name: /Allow for this chat/ })).toBeVisible();
    await expect(card.getByRole('button', { name: /Always…/ })).toBeVisible();
    // The same request waits on the phone, inline too.
    const phoneCard = inlineCard(phone.ui, command);
    await expect(phoneCard).toBeVisible();
    await expect(phoneCard.getByTestId('approval-risk')).toHaveText('Low risk');
    expect(llm.requests).toHaveLength(1);

    // A answers it from the keyboard: Allow once has the focus once the composer is left.
    const allow = card.getByRole('button', { name: /Allow once/ });
    await allow.focus();
    await page.keyboard.press('a');

    // Settled in place on both pages at once: no card, the marker and who answered.
    for (const ui of [desktop, phone.ui]) {
      await expect(inlineCard(ui, command)).toHaveCount(0);
      const call = ui.toolCall(command);
      await expect(call.locator('.badge', { hasText: 'Allowed' })).toBeVisible();
      await expect(call.getByTestId('approval-decider')).toHaveText('once, by Chrome on Linux');
    }
    await expect(desktop.transcript.getByText('The safe check printed its answer.')).toBeVisible({ timeout: 20_000 });
    await expect(phone.ui.transcript.getByText('The safe check printed its answer.')).toBeVisible({ timeout: 20_000 });
    // The output arrived live, without a reload, on both devices.
    await expect(await desktop.toolOutput(command)).toHaveText(/^inline-safe-output\s+\[exit code 0\]$/);
    await expect(await phone.ui.toolOutput(command)).toHaveText(/^inline-safe-output\s+\[exit code 0\]$/);
    expect(JSON.stringify(llm.requests[1]!.body)).toContain('inline-safe-output');

    // After a reload the marker, who answered and the output are still there (they are the transcript).
    await page.reload();
    const call = desktop.toolCall(command);
    await expect(call.locator('.badge', { hasText: 'Allowed' })).toBeVisible({ timeout: 20_000 });
    await expect(call.getByTestId('approval-decider')).toHaveText('once, by Chrome on Linux');
    await expect(await desktop.toolOutput(command)).toHaveText(/^inline-safe-output\s+\[exit code 0\]$/);
  } finally {
    await phone.close();
  }
});

test('a destructive command: marked, Deny focused, single keys do not approve; denied from the phone, settled on the desktop', async ({
  page,
  browser,
}) => {
  const workspace = host.paths.workspaceDir('main');
  await mkdir(join(workspace, 'build'), { recursive: true });
  const command = 'rm -r build';
  llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: 'I left the build folder alone.' },
  ]);
  const desktop = new ControlUiPage(page);
  await desktop.open(host.url, host.token, 'chat');
  const phone = await openPhone(browser);
  try {
    await desktop.send('Clean out the build folder');
    const card = inlineCard(desktop, command);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card).toHaveAttribute('data-risk', 'destructive');
    await expect(card.getByTestId('approval-risk')).toHaveText('Destructive: cannot be undone');
    await expect(card).toContainText('Deny is the default, and no single key approves it.');
    await expect(card.getByTestId('approval-writes')).toHaveText('build');
    // Deny is the default: it has the focus when the card appears (the composer was left empty).
    const deny = card.getByRole('button', { name: /Deny/ });
    await expect(deny).toBeFocused();
    // A / F / S do nothing on a destructive request.
    for (const key of ['a', 'f', 's']) await page.keyboard.press(key);
    await expect(card.getByRole('group')).toHaveCount(0);
    await expect(card).toBeVisible();
    expect(llm.requests).toHaveLength(1);
    // "Always" is only ever narrow: these exact arguments, or these arguments in this folder.
    await card.getByRole('button', { name: /Always…/ }).click();
    const choices = card.getByRole('group', { name: 'Always allow, but only:' });
    await expect(choices.getByRole('button')).toHaveText([
      'only these exact arguments',
      `these exact arguments, only in ${workspace}`,
      'Cancel',
    ]);
    await choices.getByRole('button', { name: 'Cancel' }).click();

    // The phone sees the same warning and denies it with a tap.
    const phoneCard = inlineCard(phone.ui, command);
    await expect(phoneCard).toHaveAttribute('data-risk', 'destructive');
    await phoneCard.getByRole('button', { name: /Deny/ }).tap();

    for (const ui of [phone.ui, desktop]) {
      await expect(inlineCard(ui, command)).toHaveCount(0);
      const call = ui.toolCall(command);
      await expect(call.locator('.badge', { hasText: 'Denied' })).toBeVisible();
      await expect(call.getByTestId('approval-decider')).toHaveText('by Chrome on Linux');
    }
    await expect(desktop.transcript.getByText('I left the build folder alone.')).toBeVisible({ timeout: 20_000 });
    expect(existsSync(join(workspace, 'build'))).toBe(true);
    await expect(await desktop.toolOutput(command)).toContainText('Not run');

    await page.reload();
    const call = desktop.toolCall(command);
    await expect(call.locator('.badge', { hasText: 'Denied' })).toBeVisible({ timeout: 20_000 });
    await expect(call.getByTestId('approval-decider')).toHaveText('by Chrome on Linux');
    await expect(await desktop.toolOutput(command)).toContainText('Not run');
  } finally {
    await phone.close();
  }
});

/** Every screenshot of one card: desktop and phone, light and dark. */
async function shoot(page: Page, card: Locator, name: string, language: string) {
  await shootEveryVariant(page, {
    path: (device, scheme) => `${docsDir}${name}-${device}-${scheme}-${language}.png`,
    arrange: () => card.evaluate((element) => element.scrollIntoView({ block: 'center' })),
  });
}

for (const [language, locale, prompt] of [
  ['en', 'en-US', 'Tidy up: check the folder, then clear the cache'],
  ['zh', 'zh-CN', '整理一下：先看看文件夹，再清掉缓存'],
] as const) {
  test(`screenshots of the inline card, safe and destructive (${language})`, async ({ browser }) => {
    test.skip(!docsShots, 'docs screenshots are written with HEARTH_DOCS_SCREENSHOTS=1');
    await mkdir(join(host.paths.workspaceDir('main'), 'cache'), { recursive: true });
    const safe = 'ls -la src';
    const destructive = 'rm -rf cache';
    llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: safe } }] },
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: destructive } }] },
      { type: 'text', text: language === 'zh' ? '好的，都没有动。' : 'Understood, nothing was changed.' },
    ]);
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    try {
      const ui = new ControlUiPage(page);
      // The page object's open and send read the English labels; here the page speaks the locale's.
      const said = language === 'zh' ? { connected: '已连接', composer: '给 Hearth 发消息…' } : undefined;
      if (said) {
        await page.goto(`${host.url}/?view=chat#token=${encodeURIComponent(host.token)}`);
        await ui.connectionBadge.filter({ hasText: said.connected }).first().waitFor({ state: 'attached' });
        const composer = page.getByRole('textbox', { name: said.composer });
        await composer.fill(prompt);
        await composer.press('Enter');
      } else {
        await ui.open(host.url, host.token, 'chat');
        await ui.send(prompt);
      }
      for (const [command, name] of [
        [safe, 'inline-approval-safe'],
        [destructive, 'inline-approval-destructive'],
      ] as const) {
        const card = inlineCard(ui, command);
        await expect(card).toBeVisible({ timeout: 20_000 });
        await shoot(page, card, name, language);
        await card.getByRole('button', { name: language === 'zh' ? /拒绝/ : /Deny/ }).click();
        await expect(card).toHaveCount(0);
      }
    } finally {
      await context.close();
    }
  });
}
