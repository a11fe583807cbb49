import { fileURLToPath } from 'node:url';
import { type Browser, expect, type Page, test } from '@playwright/test';
import type { FakeLlmRequest, FakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import type { TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';
import { type RealHostWithFakeModel, startRealHostWithFakeModel } from './real-host-with-fake-model.js';

// Issue 22's "copy / edit-and-resend / regenerate on messages … attachments shown as chips and sent
// as attachments (not glued onto the prompt), Retry that does not duplicate the message", end to end:
// the real composed host, the built Control UI, and what the fake model server actually received.
const uiDir = process.env.HEARTH_E2E_UI_DIR ?? fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
process.env.LANCEDB_LOG ??= 'error';

let real: RealHostWithFakeModel;
let llm: FakeLlmServer;
let host: TestHost;
test.beforeAll(async () => {
  real = await startRealHostWithFakeModel({
    homePrefix: 'hearth-e2e-chat-redo-',
    controlUiDir: uiDir,
    secret: 'sk-e2e-redo-FFFF',
  });
  ({ llm, host } = real);
});
test.afterAll(async () => {
  await real?.close();
});
test.beforeEach(() => {
  llm.reset();
});

/** The text of each of the person's messages, in transcript order. */
const userTexts = (ui: ControlUiPage) => ui.transcript.getByRole('article', { name: 'You' }).locator('.msg-plain');
/** Each answer's text, in transcript order. */
const answerTexts = (ui: ControlUiPage) => ui.transcript.getByRole('article', { name: 'Hearth' }).locator('.markdown');

interface WireMessage {
  role: string;
  content: unknown;
}
/** The chat messages a request to the fake model carried (OpenAI's wire format), without the system prompt. */
function conversation(request: FakeLlmRequest | undefined): WireMessage[] {
  const messages = (request?.body.messages ?? request?.body.input ?? []) as WireMessage[];
  return messages.filter((m) => m.role !== 'system' && m.role !== 'developer');
}
/** Every text a request carried for the person, whatever shape its content had. */
function userTextsSent(request: FakeLlmRequest | undefined): string[] {
  return conversation(request)
    .filter((m) => m.role === 'user')
    .flatMap((m) =>
      typeof m.content === 'string'
        ? [m.content]
        : (m.content as { type: string; text?: string }[])
            .filter((part) => part.type === 'text' || part.type === 'input_text')
            .map((part) => part.text ?? ''),
    );
}

/** A fresh chat, so each test starts from an empty transcript. */
async function newChat(page: Page, ui: ControlUiPage): Promise<void> {
  await page.keyboard.press('Control+Shift+O');
  await expect(
    page.getByRole('complementary', { name: 'Sessions' }).locator('.session-item[aria-current="true"]'),
  ).toHaveText('New chat');
  await expect(ui.composer).toBeFocused();
}

/** A reload, then the chat again (a fresh load opens the main chat). */
async function reloadInto(ui: ControlUiPage, chat: string): Promise<void> {
  await ui.page.reload();
  await ui.page
    .getByRole('complementary', { name: 'Sessions' })
    .getByRole('button', { name: chat, exact: true })
    .click();
}

/** Another device looking at the same chat. */
async function openObserver(browser: Browser, chat: string): Promise<{ ui: ControlUiPage; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const ui = new ControlUiPage(await context.newPage());
  await ui.open(host.url, host.token, 'chat');
  await ui.page
    .getByRole('complementary', { name: 'Sessions' })
    .getByRole('button', { name: chat, exact: true })
    .click();
  return { ui, close: () => context.close() };
}

test('edit and resend: the edited message takes the old one’s place and its answer replaces the old answer', async ({
  page,
  browser,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await newChat(page, ui);
  llm.script({ type: 'text', text: 'Lisbon: trams, tiles and custard tarts.' });
  await ui.send('Plan a weekend in Lisbon');
  await expect(answerTexts(ui)).toHaveText(['Lisbon: trams, tiles and custard tarts.'], { timeout: 20_000 });
  const observer = await openObserver(browser, 'Plan a weekend in Lisbon');
  try {
    await expect(answerTexts(observer.ui)).toHaveText(['Lisbon: trams, tiles and custard tarts.']);

    const mine = ui.transcript.getByRole('article', { name: 'You' });
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit and resend' }).click();
    const box = page.getByRole('textbox', { name: 'Edit your message' });
    await expect(box).toBeFocused();
    await expect(box).toHaveValue('Plan a weekend in Lisbon');
    await expect(mine).toContainText('The answer below is replaced.');
    // Escape leaves the message as it was.
    await box.press('Escape');
    await expect(box).toHaveCount(0);
    await expect(userTexts(ui)).toHaveText(['Plan a weekend in Lisbon']);

    await mine.hover();
    await mine.getByRole('button', { name: 'Edit and resend' }).click();
    llm.script({ type: 'text', text: 'Porto: port cellars and the Douro.' });
    await box.fill('Plan a weekend in Porto');
    await box.press('Enter');

    // One message, one answer: the old branch is gone, here and on the other device, live.
    for (const [where, view] of [
      ['here', ui],
      ['on the other device', observer.ui],
    ] as const) {
      await expect(answerTexts(view), where).toHaveText(['Porto: port cellars and the Douro.'], { timeout: 20_000 });
      await expect(userTexts(view), where).toHaveText(['Plan a weekend in Porto']);
      await expect(view.transcript, where).not.toContainText('Lisbon');
    }
    // The model read the edited message alone: not the old one, not the old answer.
    expect(llm.requests).toHaveLength(2);
    expect(userTextsSent(llm.requests[1])).toEqual(['Plan a weekend in Porto']);
    expect(JSON.stringify(conversation(llm.requests[1]))).not.toContain('Lisbon');

    // What was replaced stays replaced after a reload.
    await reloadInto(ui, 'Plan a weekend in Lisbon');
    await expect(answerTexts(ui)).toHaveText(['Porto: port cellars and the Douro.'], { timeout: 20_000 });
    await expect(userTexts(ui)).toHaveText(['Plan a weekend in Porto']);
    await expect(ui.transcript).not.toContainText('Lisbon');
  } finally {
    await observer.close();
  }
});

test('regenerate: a new answer to the same message, the message not sent or shown twice', async ({ page, browser }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await newChat(page, ui);
  llm.script({ type: 'text', text: 'A haiku: cold tea in the cup.' });
  await ui.send('Write me a haiku about tea');
  await expect(answerTexts(ui)).toHaveText(['A haiku: cold tea in the cup.'], { timeout: 20_000 });
  const observer = await openObserver(browser, 'Write me a haiku about tea');
  try {
    await expect(answerTexts(observer.ui)).toHaveText(['A haiku: cold tea in the cup.']);
    // Only the last answer offers it, and it says what it does.
    const answer = ui.transcript.getByRole('article', { name: 'Hearth' });
    await answer.hover();
    const regenerate = answer.getByRole('button', { name: 'Regenerate' });
    await expect(regenerate).toHaveAttribute('title', 'Replace this answer with a new one');
    llm.script({ type: 'text', text: 'Another: steam curls, the kettle sings.' });
    await regenerate.click();

    for (const [where, view] of [
      ['here', ui],
      ['on the other device', observer.ui],
    ] as const) {
      await expect(answerTexts(view), where).toHaveText(['Another: steam curls, the kettle sings.'], {
        timeout: 20_000,
      });
      await expect(userTexts(view), where).toHaveText(['Write me a haiku about tea']);
    }
    // The model was asked the same question once, without the answer it replaces.
    expect(llm.requests).toHaveLength(2);
    expect(userTextsSent(llm.requests[1])).toEqual(['Write me a haiku about tea']);
    expect(JSON.stringify(conversation(llm.requests[1]))).not.toContain('cold tea in the cup');

    await reloadInto(ui, 'Write me a haiku about tea');
    await expect(answerTexts(ui)).toHaveText(['Another: steam curls, the kettle sings.'], { timeout: 20_000 });
    await expect(userTexts(ui)).toHaveText(['Write me a haiku about tea']);
  } finally {
    await observer.close();
  }
});

// Found by this spec (issue 22): the broken-off stream used to cool its only credential down, so
// Retry waited ~30 s ("rate limited") before a second model request was made.
test('retry after a failed answer: answered again, the message not duplicated', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await newChat(page, ui);
  // The connection drops halfway through the answer: what streamed reached the person, so it is not retried by itself.
  llm.script({ type: 'die_midway', text: 'The capital of Peru is a city on the Pacific coast, Lima.' });
  await ui.send('What is the capital of Peru?');
  const failed = ui.transcript.getByRole('article', { name: 'Hearth' }).getByRole('alert');
  await expect(failed).toBeVisible({ timeout: 30_000 });
  llm.script({ type: 'text', text: 'Lima.' });
  await ui.transcript.getByRole('article', { name: 'Hearth' }).getByRole('button', { name: 'Retry' }).click();
  await expect(answerTexts(ui)).toHaveText(['Lima.'], { timeout: 20_000 });
  await expect(userTexts(ui)).toHaveText(['What is the capital of Peru?']);
  await expect(failed).toHaveCount(0);
  expect(userTextsSent(llm.requests.at(-1))).toEqual(['What is the capital of Peru?']);
  await reloadInto(ui, 'What is the capital of Peru?');
  await expect(answerTexts(ui)).toHaveText(['Lima.'], { timeout: 20_000 });
  await expect(userTexts(ui)).toHaveText(['What is the capital of Peru?']);
});

// A 1×1 PNG and a small PDF: the kinds the OpenAI wire takes as parts of their own.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

test('attachments: chips in the composer and the message, sent to the model as parts of their own', async ({
  page,
  browser,
}) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await newChat(page, ui);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles([
    { name: 'receipt.png', mimeType: 'image/png', buffer: png },
    { name: 'itinerary.pdf', mimeType: 'application/pdf', buffer: pdf },
    { name: 'stray.pdf', mimeType: 'application/pdf', buffer: pdf },
  ]);
  const composer = page.locator('.composer');
  await expect(composer.getByTestId('attachment-chip')).toHaveText([
    /^receipt\.pngPNG · \d+ B/,
    /^itinerary\.pdfPDF · \d+ B/,
    /^stray\.pdfPDF · \d+ B/,
  ]);
  // A chip taken off is not sent.
  await composer.getByRole('button', { name: 'Remove stray.pdf' }).click();
  await expect(composer.getByTestId('attachment-chip')).toHaveCount(2);

  llm.script({ type: 'text', text: 'The receipt is for two nights; the itinerary is empty.' });
  await ui.send('What do these say?');
  await expect(answerTexts(ui)).toHaveText(['The receipt is for two nights; the itinerary is empty.'], {
    timeout: 20_000,
  });
  await expect(composer.getByTestId('attachment-chip')).toHaveCount(0);
  const sent = ui.transcript.getByRole('article', { name: 'You' });
  await expect(sent.getByRole('list', { name: 'Attachments' }).getByTestId('attachment-chip')).toHaveText([
    /^receipt\.pngPNG/,
    /^itinerary\.pdfPDF/,
  ]);

  // What the model received: the typed text as it was, each file a part of its own.
  const request = llm.requests.at(-1);
  const user = conversation(request).findLast((m) => m.role === 'user');
  expect(Array.isArray(user?.content)).toBe(true);
  const parts = user!.content as Record<string, unknown>[];
  expect(userTextsSent(request)).toEqual(['What do these say?']);
  const image = parts.find((p) => p.type === 'image_url') as { image_url: { url: string } } | undefined;
  expect(image?.image_url.url).toBe(`data:image/png;base64,${png.toString('base64')}`);
  const file = parts.find((p) => p.type === 'file') as { file: { filename: string; file_data: string } } | undefined;
  expect(file?.file.filename).toBe('itinerary.pdf');
  expect(file?.file.file_data).toBe(`data:application/pdf;base64,${pdf.toString('base64')}`);
  expect(JSON.stringify(parts)).not.toContain('stray.pdf');

  // The chips are part of the transcript: still there after a reload, and on another device.
  await reloadInto(ui, 'What do these say?');
  await expect(
    ui.transcript
      .getByRole('article', { name: 'You' })
      .getByRole('list', { name: 'Attachments' })
      .getByTestId('attachment-chip'),
  ).toHaveText([/^receipt\.pngPNG/, /^itinerary\.pdfPDF/], { timeout: 20_000 });
  const observer = await openObserver(browser, 'What do these say?');
  try {
    await expect(
      observer.ui.transcript
        .getByRole('article', { name: 'You' })
        .getByRole('list', { name: 'Attachments' })
        .getByTestId('attachment-chip'),
    ).toHaveText([/^receipt\.pngPNG/, /^itinerary\.pdfPDF/], { timeout: 20_000 });
  } finally {
    await observer.close();
  }
});
