import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type FakeLlmServer, startFakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import { fakeOpenAiConfig } from '../../src-main/testing/product-fixture.js';
import { connectRaw, type RawGatewaySocket } from '../../src-main/testing/raw-gateway-socket.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';

// OpenClaw 2026.9.6's own Control UI, unmodified (the npm package's dist/control-ui, fetched into a
// cache outside the repo by scripts/openclaw-control-ui.mjs), served by a real Hearth host in place
// of Hearth's UI (what gateway.controlUi.root does), against the fake LLM. The UI finds the gateway
// on its own origin and takes the token from the URL fragment, as its docs say.
const uiDir = process.env.OPENCLAW_CONTROL_UI_DIR;
const REPLY = 'Hi there from the fake model 4242';
const shots = join(import.meta.dirname, '..', 'artifacts', 'openclaw-ui');

// The views the research walked (shared/research/openclaw-control-ui/README.md), by in-app navigation;
// /sessions is checked on its own first. OpenClaw's router shows /automations for /cron and
// /settings/devices for /nodes, and navigate() waits for the page to change, so an alias is
// never walked right after the view it stands for.
const views = [
  '/agents',
  '/automations',
  '/dashboards',
  '/cron',
  '/systems',
  '/plugins',
  '/nodes',
  '/usage',
  '/settings/devices',
  '/logs',
  '/channels',
  '/skills',
  '/config',
  '/settings/approvals',
  '/settings/model-providers',
];

let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;

test.beforeAll(async () => {
  test.skip(!uiDir, 'OPENCLAW_CONTROL_UI_DIR is not set (scripts/e2e.mjs sets it)');
  llm = await startFakeLlmServer({ defaultReply: { type: 'text', text: REPLY } });
  temp = await createTempHome('hearth-e2e-openclaw-ui-');
  await writeFile(join(temp.home, 'hearth.json'), JSON.stringify(fakeOpenAiConfig(llm)));
  host = await startTestHost({
    home: temp.home,
    controlUiDir: uiDir,
    env: { ...process.env, HEARTH_SECRET_STORE: 'file' },
  });
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  try {
    const added = await socket.request('auth.profiles.set', {
      id: 'openai-main',
      provider: 'openai',
      type: 'api_key',
      secret: 'sk-e2e-openclaw-ui',
    });
    if (!added.ok) throw new Error(`auth.profiles.set failed: ${JSON.stringify(added.error)}`);
  } finally {
    socket.close();
  }
});

test.afterAll(async () => {
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});

/** Requests the page sent that have no answer yet, from the socket frames Chromium saw. */
function trackGateway(page: Page) {
  const pending = new Set<string>();
  const failures: string[] = [];
  /** User messages the gateway announced as stored (`session.message`), by text. */
  const storedUserTexts: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      const message = JSON.parse(String(frame.payload)) as { type?: string; id?: string };
      if (message.type === 'req' && message.id) pending.add(message.id);
    });
    ws.on('framereceived', (frame) => {
      const message = JSON.parse(String(frame.payload)) as {
        type?: string;
        id?: string;
        ok?: boolean;
        error?: { code: string; message: string };
        event?: string;
        payload?: { message?: { role?: string; content?: { text?: string }[] } };
      };
      if (message.event === 'session.message' && message.payload?.message?.role === 'user')
        storedUserTexts.push(message.payload.message.content?.[0]?.text ?? '');
      if (message.type !== 'res' || !message.id) return;
      pending.delete(message.id);
      // A coded UNAVAILABLE is the promised answer for a capability Hearth lacks; anything else is a failure.
      if (!message.ok && message.error?.code !== 'UNAVAILABLE')
        failures.push(`${message.error?.code}: ${message.error?.message}`);
    });
  });
  return { pending, failures, storedUserTexts };
}

test("OpenClaw's Control UI connects, chats, lists sessions, resolves an approval and opens every view", async ({
  page,
}) => {
  const uncaught: string[] = [];
  page.on('pageerror', (error) => uncaught.push(`${error.name}: ${error.message}`));
  const gateway = trackGateway(page);
  const settled = () => expect.poll(() => gateway.pending.size, { timeout: 60_000 }).toBe(0);

  // Connects: the shell shows Hearth's name (from agent.identity.get / control-ui-config.json) and the composer.
  await page.goto(`${host.url}/#token=${host.token}`);
  const composer = page.getByPlaceholder(/Message Hearth/);
  await expect(composer).toBeVisible({ timeout: 90_000 });
  await page.screenshot({ path: join(shots, '01-connected.png') });

  // A chat turn: the message goes out as chat.send and the model's reply is shown.
  await composer.fill('hello from the OpenClaw UI');
  await composer.press('Enter');
  await expect(page.getByText(REPLY).first()).toBeVisible({ timeout: 60_000 });
  expect(llm.requests.at(-1)?.lastUserText).toBe('hello from the OpenClaw UI');
  // Once the stored copy has arrived (and the history read it starts has settled), the UI has
  // matched it to the message it showed on send: the message shows once, not twice.
  await expect.poll(() => gateway.storedUserTexts, { timeout: 20_000 }).toContain('hello from the OpenClaw UI');
  await settled();
  await expect(page.locator('.chat-group.user').getByText('hello from the OpenClaw UI', { exact: true })).toHaveCount(
    1,
  );
  await page.screenshot({ path: join(shots, '02-chat.png') });

  // Sessions: the list shows the main session the turn ran in.
  await navigate(page, '/sessions');
  await expect(page.getByText(/Main Session|agent:main:main/).first()).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: join(shots, '03-sessions.png') });

  // An approval raised by another operator client shows in the Inbox; Allow once resolves it.
  const requester: RawGatewaySocket = (await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] }))
    .socket;
  try {
    requester.send({
      type: 'req',
      id: 'approval-probe',
      method: 'exec.approval.request',
      params: { command: 'echo approval-probe', twoPhase: true },
    });
    await requester.next((f) => f.type === 'res' && f.id === 'approval-probe');
    await page.getByRole('button', { name: /inbox/i }).first().click();
    await expect(page.getByText('echo approval-probe').first()).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: join(shots, '04-approval.png') });
    await page
      .getByRole('button', { name: /Allow once/i })
      .first()
      .click();
    const decided = await requester.next(
      (f) =>
        f.type === 'res' && f.id === 'approval-probe' && (f.payload as { decision?: unknown })?.decision !== undefined,
      20_000,
    );
    expect(decided.payload).toMatchObject({ decision: 'allow-once' });
  } finally {
    requester.close();
  }

  // Every view opens; whatever Hearth lacks answers a coded UNAVAILABLE, never an uncaught error.
  for (const [index, view] of views.entries()) {
    await navigate(page, view);
    await settled();
    // The UI validates what it gets; a shape it refuses shows as "the gateway returned an invalid … response".
    await expect(page.getByText(/returned an invalid/i)).toHaveCount(0);
    await page.screenshot({
      path: join(shots, `view-${String(index).padStart(2, '0')}${view.replaceAll('/', '-')}.png`),
    });
  }
  expect(uncaught).toEqual([]);
  expect(gateway.failures).toEqual([]);
});

/**
 * In-app navigation, as the UI's own links do it (pushState + popstate), so the socket stays up.
 * Some routes redirect (/config opens Settings → Appearance), so the page only has to take the route.
 */
async function navigate(page: Page, path: string): Promise<void> {
  const before = await page.evaluate(() => document.querySelector('main')?.textContent ?? '');
  await page.evaluate((target) => {
    history.pushState({}, '', target);
    dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
  await expect
    .poll(() => page.evaluate(() => document.querySelector('main')?.textContent ?? ''), { timeout: 30_000 })
    .not.toBe(before);
}
