import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import type { RemoteGatewayRecord } from '../../src-main/app/remote-gateway-identity.js';
import { shootEveryVariant } from '../ui/docs-screenshots.js';
import { type DesktopHarness, startDesktopHarness } from './desktop-harness.js';

// The desktop's corner menu ("This computer ▾") against main's real gateway switch over
// hearth:gateways: listing the paired gateways, switching to one (the window reloads onto it)
// and back, and opening the pair screen. With HEARTH_DOCS_SCREENSHOTS=1 the menu closed, open
// with two paired gateways, and the pair screen are written for docs/ (en/zh, light/dark, both sizes).
const docsShots = process.env.HEARTH_DOCS_SCREENSHOTS === '1';
const docsDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

let harness: DesktopHarness;
/** A loopback port that closes every connection at once: a paired gateway that is switched off. */
let deadGateway: Server;

const pin = (digit: string) => digit.repeat(64);
const paired = (port: number): RemoteGatewayRecord[] => [
  {
    id: pin('a').slice(0, 16),
    urls: [`wss://127.0.0.1:${port}`],
    tlsFingerprint: pin('a'),
    name: 'Studio Mac',
    scopes: ['operator.read', 'operator.write', 'operator.approvals'],
    pairedAt: 1_764_000_000_000,
  },
  {
    id: pin('b').slice(0, 16),
    urls: [`wss://127.0.0.1:${port}`],
    tlsFingerprint: pin('b'),
    name: 'Home server',
    scopes: ['operator.read', 'operator.write', 'operator.approvals'],
    pairedAt: 1_764_100_000_000,
  },
];

test.beforeAll(async () => {
  deadGateway = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => deadGateway.listen(0, '127.0.0.1', resolve));
  const address = deadGateway.address();
  harness = await startDesktopHarness({ paired: paired(typeof address === 'object' && address ? address.port : 1) });
});
test.afterAll(async () => {
  await harness?.close();
  await new Promise<void>((resolve) => deadGateway?.close(() => resolve()));
});

const indicator = (page: Page) => page.getByTestId('gateway-indicator');
const connected = (page: Page) => page.locator('output.badge', { hasText: /Connected|已连接/ }).first();

async function openApp(page: Page, language: 'en' | 'zh' = 'en') {
  await page.goto(`${harness.url}/`);
  await page.evaluate((lang) => localStorage.setItem('hearth.language', lang), language);
  await page.reload();
  await expect(indicator(page)).toBeVisible({ timeout: 30_000 });
}

test('the corner menu switches to a paired gateway and back to this computer', async ({ page }) => {
  await harness.attach(page);
  await openApp(page);
  await expect(connected(page)).toBeAttached({ timeout: 30_000 });
  await expect(page.getByTestId('gateway-indicator-label')).toHaveText('This computer');
  await expect(indicator(page)).toHaveAttribute('data-remote', 'false');

  await indicator(page).locator('summary').click();
  const menu = page.getByRole('menu', { name: 'Which Hearth this window uses' });
  await expect(menu.getByRole('menuitemradio')).toHaveCount(3);
  await expect(menu.getByRole('menuitemradio', { name: 'This computer' })).toHaveAttribute('aria-checked', 'true');

  // Main switches, writes the choice and reloads the window, which then talks to Studio Mac (off here).
  await menu.getByRole('menuitemradio', { name: /Studio Mac/ }).click();
  await expect(page.getByTestId('gateway-indicator-label')).toHaveText('Studio Mac', { timeout: 30_000 });
  await expect(indicator(page)).toHaveAttribute('data-remote', 'true');
  expect(harness.switcher.view.active).toBe(pin('a').slice(0, 16));
  await indicator(page).locator('summary').click();
  await expect(page.getByTestId('gateway-problem')).toContainText('Cannot use Studio Mac', { timeout: 30_000 });

  // The way back works while the remote one is unreachable: the menu does not need a gateway.
  await page.getByRole('menuitemradio', { name: 'This computer' }).click();
  await expect(page.getByTestId('gateway-indicator-label')).toHaveText('This computer', { timeout: 30_000 });
  await expect(connected(page)).toBeAttached({ timeout: 30_000 });
  expect(harness.switcher.view.active).toBe('local');
  await expect(page.getByTestId('gateway-problem')).toHaveCount(0);
});

test('the corner menu opens the pair screen, and Back returns to the app', async ({ page }) => {
  await harness.attach(page);
  await openApp(page);
  await indicator(page).locator('summary').click();
  await page.getByRole('menuitem', { name: 'Pair with another computer…' }).click();
  await expect(page.getByTestId('pairing-screen')).toBeVisible();
  await page.getByTestId('pairing-back').click();
  await expect(indicator(page)).toBeVisible();
});

test('docs screenshots of the corner menu', async ({ page }) => {
  test.skip(!docsShots, 'docs screenshots are written with HEARTH_DOCS_SCREENSHOTS=1');
  await harness.attach(page);
  for (const language of ['en', 'zh'] as const) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openApp(page, language);
    await expect(connected(page)).toBeAttached({ timeout: 30_000 });
    const at = (name: string) => (device: string, scheme: string) =>
      `${docsDir}${name}-${device}-${scheme}-${language}.png`;
    await shootEveryVariant(page, { path: at('gateway-menu-closed') });

    await indicator(page).locator('summary').click();
    await expect(page.getByRole('menuitemradio')).toHaveCount(3);
    await shootEveryVariant(page, { path: at('gateway-menu-open') });

    await page.getByRole('menuitem').last().click();
    await expect(page.getByTestId('pairing-screen')).toBeVisible();
    await shootEveryVariant(page, { path: at('gateway-pair') });
  }
});
