import { expect, test } from '@playwright/test';
import { type DesktopHarness, startDesktopHarness } from './desktop-harness.js';

// The Control UI in Chromium, talking to the real host only through the built
// preload and the IPC bridge (no WebSocket, no token): the desktop path end to end.

let harness: DesktopHarness;
test.beforeAll(async () => {
  harness = await startDesktopHarness();
});
test.afterAll(async () => {
  await harness?.close();
});

test('the Control UI connects through the preload bridge without a token', async ({ page }) => {
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await harness.attach(page);
  await page.goto(`${harness.url}/`);
  await expect(page.locator('output.badge', { hasText: 'Connected' }).first()).toBeAttached({ timeout: 30_000 });
  expect(sockets).toEqual([]);
  expect(violations).toEqual([]);

  const surface = await page.evaluate(() => {
    const hearth = (globalThis as unknown as { hearth: Record<string, unknown> }).hearth;
    return { keys: Object.keys(hearth).sort(), frozen: Object.isFrozen(hearth), version: hearth.version };
  });
  expect(surface).toEqual({
    keys: ['gatewayUrl', 'gateways', 'onFrame', 'onGatewaysChange', 'send', 'setLanguage', 'version'],
    frozen: true,
    version: '0.1.0',
  });
});

test('a request from the page gets its answer, and a malformed one a clear error', async ({ page }) => {
  await harness.attach(page);
  await page.goto(`${harness.url}/`);
  await expect(page.locator('output.badge', { hasText: 'Connected' }).first()).toBeAttached({ timeout: 30_000 });
  const answers = await page.evaluate(async () => {
    type Frame = { type: string; id?: string; ok?: boolean; error?: { code: string; message: string } };
    const hearth = (
      globalThis as unknown as {
        hearth: { send(frame: unknown): void; onFrame(listener: (frame: Frame) => void): () => void };
      }
    ).hearth;
    const wanted = new Set(['e2e-bad']);
    const seen: Frame[] = [];
    const done = new Promise<void>((resolve) => {
      const off = hearth.onFrame((frame) => {
        if (frame.type === 'res' && frame.id && wanted.has(frame.id)) {
          seen.push(frame);
          off();
          resolve();
        }
      });
    });
    hearth.send({ type: 'req', id: 'e2e-bad', method: 'health', params: {}, injected: true });
    await done;
    return seen;
  });
  expect(answers).toEqual([
    {
      type: 'res',
      id: 'e2e-bad',
      ok: false,
      error: {
        code: 'INVALID_REQUEST',
        message: 'invalid request frame: must NOT have additional properties (injected)',
      },
    },
  ]);
});

test('a reload starts a fresh session that connects again', async ({ page }) => {
  await harness.attach(page);
  await page.goto(`${harness.url}/`);
  const badge = page.locator('output.badge', { hasText: 'Connected' }).first();
  await expect(badge).toBeAttached({ timeout: 30_000 });
  await page.reload();
  await expect(badge).toBeAttached({ timeout: 30_000 });
});
