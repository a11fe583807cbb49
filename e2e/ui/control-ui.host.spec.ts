import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { type FakeLlmServer, startFakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import { connectRaw } from '../../src-main/testing/raw-gateway-socket.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { ControlUiPage } from './pages/control-ui-page.js';

// The built UI served by the real composed host (startHearth) on a temp HEARTH_HOME:
// the same bundle, the real gateway, sessions, exec host, agent runtime and canvas routes.
// The only fake is the edge: a loopback LLM speaking the OpenAI wire format.
const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
// LanceDB's native logger prints a scanner deprecation warning per search; keep its errors only.
process.env.LANCEDB_LOG ??= 'error';

// Two keys for one provider; the fake tells them apart by their last four characters.
const keys = { first: 'sk-e2e-first-AAAA', second: 'sk-e2e-second-BBBB' } as const;

let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
test.beforeAll(async () => {
  llm = await startFakeLlmServer();
  temp = await createTempHome('hearth-e2e-ui-');
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
      agents: { defaults: { model: 'openai/gpt-4o' } },
    }),
  );
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    env: { ...process.env, HEARTH_SECRET_STORE: 'file' },
  });
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  try {
    for (const [name, secret] of Object.entries(keys)) {
      const added = await socket.request('auth.profiles.set', {
        id: `openai-${name}`,
        provider: 'openai',
        type: 'api_key',
        secret,
        label: `OpenAI ${name}`,
      });
      if (!added.ok) throw new Error(`auth.profiles.set failed: ${JSON.stringify(added.error)}`);
    }
  } finally {
    socket.close();
  }
});
test.afterAll(async () => {
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});
test.beforeEach(() => {
  llm.reset();
});

/** One request over a fresh admin connection, as another client (or a script) would make it. */
async function gatewayCall(method: string, params: unknown): Promise<Record<string, unknown>> {
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  try {
    const response = await socket.request(method, params, 20_000);
    if (!response.ok) throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    return response.payload as Record<string, unknown>;
  } finally {
    socket.close();
  }
}

// A daily note about something the user cares about, dated yesterday (inside Dreaming's look-back).
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const notePath = `memory/${yesterday}.md`;
const note = 'Sam brews green tea with oat milk every afternoon at the studio desk';
async function plantNote(): Promise<void> {
  const dir = join(host.paths.workspaceDir('main'), 'memory');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${yesterday}.md`), `# ${yesterday}\n\n- 15:10 [preference] ${note}\n`);
  // The host's watcher indexes it; wait until a search finds it.
  await expect
    .poll(
      async () => {
        const { results } = await gatewayCall('memory.search', { query: 'green tea oat milk' });
        return (results as { path: string }[]).map((r) => r.path);
      },
      { timeout: 30_000 },
    )
    .toContain(notePath);
}

test('connects with the gateway token from the URL fragment and drops it from the address bar', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'settings');
  expect(page.url()).not.toContain('token=');
  // A reload keeps working: the browser registered its own device key, and the gateway token was not kept.
  expect(JSON.stringify(await page.evaluate(() => Object.entries(localStorage)))).not.toContain(host.token);
  await page.reload();
  await expect(ui.connectionBadge.filter({ hasText: 'Connected' }).first()).toBeVisible();
});

test('chat: a message streams back from the model, in pieces', async ({ page }) => {
  const reply = 'Streaming works end to end: this answer came from the fake model in small chunks.';
  llm.script([{ type: 'text', text: reply, chunkSize: 4, firstTokenDelayMs: 300 }]);
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await ui.send('Say something long, please');
  await expect(ui.transcript.getByText('Say something long, please')).toBeVisible();
  await expect(ui.transcript.getByText(reply)).toBeVisible({ timeout: 20_000 });
  // The run went through the real runtime: one request, with the user's words and the workspace prompt.
  expect(llm.requests).toHaveLength(1);
  expect(llm.requests[0]!.lastUserText).toContain('Say something long, please');
  expect(JSON.stringify(llm.requests[0]!.body)).toContain('SOUL.md');
  // What the page was sent: many deltas, then one final carrying the whole text.
  await expect.poll(() => ui.chatEvents('final').length).toBe(1);
  expect(JSON.stringify(ui.chatEvents('final')[0]!.payload.message)).toContain(reply);
  const deltas = ui.chatEvents('delta');
  expect(deltas.length).toBeGreaterThan(5);
  expect(deltas.map((d) => d.payload.deltaText).join('')).toBe(reply);
  await ui.screenshot('host-chat');
});

test('approvals: the model asks to run a command, it is allowed from the UI, and it runs', async ({ page }) => {
  const command = 'basename /e2e/ran-after-approval';
  llm.script([
    { type: 'tool_calls', calls: [{ name: 'exec', input: { command } }] },
    { type: 'text', text: 'The command printed its answer.' },
  ]);
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await ui.send('Run the check for me');
  // The tool call shows inline while it waits.
  await expect(ui.transcript.getByText('Waiting for approval')).toBeVisible({ timeout: 20_000 });
  await ui.screenshot('host-chat-approval-pending');

  await ui.go('approvals');
  await expect(ui.approvalCards).toHaveCount(1);
  const card = ui.approvalCards.first();
  await expect(card).toContainText(command);
  await expect(card).toContainText(/(30:00|29:[0-5]\d) left/);
  await ui.screenshot('host-approvals');
  // Nothing has run yet: the turn waits on the approval, the model was asked once.
  expect(llm.requests).toHaveLength(1);
  await card.getByRole('button', { name: /Allow once/ }).click();
  await expect(page.getByText('No commands are waiting for approval.')).toBeVisible();
  // The browser signed in with a device key of its own: the decider is that device, by name.
  await expect(page.getByText('Allow once by Chrome on Linux')).toBeVisible();
  await ui.screenshot('host-approvals-decided');

  await ui.go('chat');
  await expect(ui.transcript.getByText('The command printed its answer.')).toBeVisible({ timeout: 20_000 });
  await expect(ui.transcript.getByText('Allowed')).toBeVisible();
  // The command really ran: its output went back to the model as the tool result.
  expect(llm.requests).toHaveLength(2);
  expect(llm.requests[1]!.toolResultCount).toBe(1);
  expect(JSON.stringify(llm.requests[1]!.body)).toContain('ran-after-approval');
  // And it is in the session's transcript: reopened, the tool call shows what the command printed.
  await page.reload();
  await expect(await ui.toolOutput(command)).toHaveText(/^ran-after-approval\s+\[exit code 0\]$/);
  await ui.screenshot('host-chat-approval-done');
});

test('auth: a 429 puts one profile in cooldown with a countdown and the reason; the other answers', async ({
  page,
}) => {
  llm.script([
    { type: 'error', error: 'rate_limit', retryAfterSeconds: 150 },
    { type: 'text', text: 'Answered with the other key.' },
  ]);
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await ui.send('Are you there?');
  await expect(ui.transcript.getByText('Answered with the other key.')).toBeVisible({ timeout: 20_000 });
  expect(llm.requests.map((r) => r.replyType)).toEqual(['error', 'text']);
  const [limited, answered] = llm.requests.map((r) => r.keyTail);
  expect(limited).not.toBe(answered);
  const name = (tail: string | undefined) => (tail === keys.first.slice(-4) ? 'OpenAI first' : 'OpenAI second');

  await ui.go('auth');
  const cooling = ui.profile(name(limited));
  await expect(cooling).toHaveAttribute('data-status', 'cooldown');
  await expect(cooling).toContainText('Cooling down');
  // retry-after (150 s) is longer than the first cooldown step, so it wins.
  await expect(cooling.getByRole('timer')).toHaveText(/Back in 2:[0-3]\d/);
  await expect(cooling).toContainText('Rate limited by the provider (HTTP 429).');
  await expect(cooling).toContainText('1 failure');
  const first = await cooling.getByRole('timer').textContent();
  await expect(cooling.getByRole('timer')).not.toHaveText(first ?? '');
  await expect(ui.profile(name(answered))).toHaveAttribute('data-status', 'ready');
  await ui.screenshot('host-auth-cooldown');
});

test('terminal: a real shell echoes what is typed', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'terminal');
  await expect(page.getByRole('button', { name: 'Close', exact: true })).toBeVisible({ timeout: 15_000 });
  // Type at the prompt, as a person would: wait until the shell has printed something.
  await expect(async () => expect(((await ui.terminal.textContent()) ?? '').trim()).not.toBe('')).toPass({
    timeout: 15_000,
  });
  await ui.terminal.click();
  await page.keyboard.type('echo hi-from-e2e');
  await page.keyboard.press('Enter');
  // Once as typed (the tty echo), once as the command's output.
  await expect(async () => {
    const text = (await ui.terminal.textContent()) ?? '';
    expect(text.split('hi-from-e2e').length - 1).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 15_000 });
  await ui.screenshot('host-terminal');
});

test('canvas: the agent writes the page and the open Canvas view reloads by itself', async ({ context }) => {
  const canvasDir = join(host.paths.workspaceDir('main'), 'canvas');
  await mkdir(canvasDir, { recursive: true });
  await writeFile(join(canvasDir, 'index.html'), '<!doctype html><h1 id="t">Blank canvas</h1>');
  // One window shows the canvas, another chats: the canvas follows what the agent does.
  const canvas = new ControlUiPage(await context.newPage());
  await canvas.open(host.url, host.token, 'canvas');
  await expect(canvas.canvasFrame.locator('#t')).toHaveText('Blank canvas');

  llm.script([
    {
      type: 'tool_calls',
      calls: [{ name: 'exec', input: { command: `printf '<h1 id="t">drawn by the agent</h1>' > canvas/index.html` } }],
    },
    { type: 'text', text: 'I drew it on the canvas.' },
  ]);
  const chat = new ControlUiPage(await context.newPage());
  await chat.open(host.url, host.token, 'chat');
  await chat.send('Draw on the canvas');
  await expect(chat.transcript.getByText('I drew it on the canvas.')).toBeVisible({ timeout: 20_000 });

  // No reload click: canvas.changed from the host's watcher reloads the frame.
  await expect(canvas.canvasFrame.locator('#t')).toHaveText('drawn by the agent', { timeout: 15_000 });
  expect(canvas.events.some((e) => e.event === 'canvas.changed')).toBe(true);
  const origin = await canvas.canvasFrame
    .locator('body')
    .evaluate(() => (globalThis as unknown as { origin: string }).origin);
  expect(origin).toBe('null');
  await canvas.page.bringToFront();
  await canvas.screenshot('host-canvas');
});

test('memory: a planted daily note is indexed by the host and found from the Memory view', async ({ page }) => {
  await plantNote();
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'memory');
  await ui.searchMemory('green tea');
  await expect(ui.memoryHits.first()).toContainText('oat milk', { timeout: 15_000 });
  // A hit is shown as a dated note (its day from the daily file's name), not as its path.
  const [year, month, day] = notePath
    .match(/(\d{4})-(\d{2})-(\d{2})/)!
    .slice(1)
    .map(Number);
  await expect(ui.memoryHits.first()).toContainText(
    new Date(year!, month! - 1, day!).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }),
  );
  await expect(ui.memoryHits.first().locator('mark').first()).toBeVisible();
  await ui.screenshot('host-memory');
});

test('dreams: the agent recalls a note, `hearth memory promote --apply` promotes it, DREAMS.md renders', async ({
  page,
}) => {
  test.setTimeout(120_000); // the CLI may start from the TypeScript sources
  await plantNote();
  // The agent looks the note up several ways: each memory_search hit is a recall Dreaming weighs.
  const queries = ['green tea', 'afternoon drink', 'oat milk', 'what does Sam drink', 'studio desk habits', 'tea'];
  llm.script([
    { type: 'tool_calls', calls: queries.map((query) => ({ name: 'memory_search', input: { query } })) },
    { type: 'text', text: 'You like green tea with oat milk in the afternoon.' },
  ]);
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'chat');
  await ui.send('What do I usually drink in the afternoon?');
  await expect(ui.transcript.getByText('You like green tea with oat milk')).toBeVisible({ timeout: 20_000 });
  expect(JSON.stringify(llm.requests[1]!.body)).toContain('oat milk');

  // The CLI a user would run, on the same HEARTH_HOME while the host is up.
  const cli = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'memory', 'promote', '--apply'], {
    env: { ...process.env, HEARTH_HOME: temp.home, HEARTH_SECRET_STORE: 'file' },
    timeout: 90_000,
  });
  expect(stdout).toMatch(/^promoted [1-9]\d*$/m);
  const memoryMd = await readFile(join(host.paths.workspaceDir('main'), 'MEMORY.md'), 'utf8');
  expect(memoryMd).toContain(note);

  await ui.go('dreams');
  await expect(ui.dreamsDiary).toContainText(/Promoted [1-9]\d* to MEMORY\.md: /, { timeout: 15_000 });
  await expect(ui.dreamsDiary).toContainText(note);
  // The CLI's run is the last run the view reports (read from disk, not from this host's memory).
  await expect(ui.dreamsSchedule).toContainText('Nightly Dreaming is off');
  await expect(ui.dreamsSchedule).toContainText(/Last run .+: [1-9]\d* promoted\./);
  await ui.screenshot('host-dreams');
  // MEMORY.md in the Memory view has the promoted note too.
  await ui.go('memory');
  await expect(ui.memoryDocument('MEMORY.md')).toContainText(note, { timeout: 15_000 });
  await ui.screenshot('host-memory-promoted');
});

test('settings: the real config loads, a schema error shows inline, a valid change saves', async ({ page }) => {
  const ui = new ControlUiPage(page);
  await ui.open(host.url, host.token, 'settings');
  await page.getByRole('tab', { name: 'Advanced' }).click();
  const editor = page.getByRole('textbox', { name: 'Config file' });
  await expect(editor).toHaveValue(/gpt-4o/);
  const original = await editor.inputValue();
  await editor.fill(JSON.stringify({ gateway: { port: 'eighteen' } }, null, 2));
  await page.getByRole('button', { name: 'Save' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('gateway');
  await expect(editor).toHaveAttribute('aria-invalid', 'true');
  await ui.screenshot('host-settings-error');

  const parsed = JSON.parse(original) as Record<string, unknown>;
  await editor.fill(JSON.stringify({ ...parsed, ui: { theme: 'system' } }, null, 2));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved')).toBeVisible();
});

test.describe('phone width', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
  test('chat, an approval and the auth view work from the bottom tabs against the real host', async ({ page }) => {
    llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'basename /phone/ran-from-the-phone' } }] },
      { type: 'text', text: 'Done from the phone.' },
    ]);
    const ui = new ControlUiPage(page);
    await ui.open(host.url, host.token, 'chat');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Tabs' })).toBeVisible();
    await ui.send('Check from my phone');
    await expect(ui.transcript.getByText('Waiting for approval')).toBeVisible({ timeout: 20_000 });
    await ui.screenshot('host-phone-chat-pending');

    await ui.go('approvals');
    await expect(ui.approvalCards).toHaveCount(1);
    await expect(ui.approvalCards.first()).toContainText('basename /phone/ran-from-the-phone');
    expect(await ui.overflowRight(ui.approvalCards.first())).toBe(0);
    await ui.screenshot('host-phone-approvals');
    await ui.approvalCards
      .first()
      .getByRole('button', { name: /Allow once/ })
      .tap();
    await expect(page.getByText('No commands are waiting for approval.')).toBeVisible();
    await expect(page.getByText('Allow once by Chrome on Linux')).toBeVisible();
    await expect(ui.decidedCommand('basename /phone/ran-from-the-phone')).toBeVisible();
    await ui.screenshot('host-phone-approvals-decided');

    await ui.go('chat');
    await expect(ui.transcript.getByText('Done from the phone.')).toBeVisible({ timeout: 20_000 });
    expect(JSON.stringify(llm.requests.at(-1)!.body)).toContain('ran-from-the-phone');
    await ui.screenshot('host-phone-chat');

    await ui.go('auth');
    await expect(ui.heading('Auth profiles')).toBeVisible();
    await expect(ui.profile('OpenAI first')).toBeVisible();
    // Nothing on the view is wider than the phone (the keychain warning once pushed it sideways).
    for (const card of await ui.cards.all()) expect(await ui.overflowRight(card)).toBe(0);
    await ui.screenshot('host-phone-auth');
    await ui.go('settings');
    await expect(ui.heading('Settings')).toBeVisible();
    // The real config's nested values stay readable (the value column once shrank to one letter).
    await page.getByRole('tab', { name: 'Agents & bindings' }).tap();
    const model = page.getByText('openai/gpt-4o', { exact: true });
    await expect(model).toBeVisible();
    expect((await model.boundingBox())?.width ?? 0).toBeGreaterThan(60);
    await ui.screenshot('host-phone-settings');
  });
});

test('a wrong token is refused with the gateway reason', async ({ page }) => {
  await page.goto(`${host.url}/#token=not-the-token`);
  await expect(page.getByRole('alert')).toContainText(/token/i);
  await page.getByLabel('Gateway token').fill(host.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.locator('output.badge').filter({ hasText: 'Connected' }).first()).toBeVisible();
});
