import { createHash, X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, expect, test } from '@playwright/test';
import { type FakeLlmServer, startFakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import { type AnyFrame, connectRaw, type RawGatewaySocket } from '../../src-main/testing/raw-gateway-socket.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';
import { chromiumArgs, chromiumExecutable } from '../chromium.js';
import { ControlUiPage } from './pages/control-ui-page.js';
import { PhonePage } from './pages/phone-page.js';

// A phone pairs with the real composed host over the remote-facing TLS listener (bound to
// loopback here): it opens the QR's https link, waits, is approved on the desktop UI, then
// chats and answers an approval with its own device key and token.
const uiDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';

interface Setup {
  code: string;
  webUrl: string;
  tlsFingerprint: string;
  expiresAt: number;
}

let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;
let admin: RawGatewaySocket;
let browser: Browser;
let setup: Setup;

/** base64 SHA-256 of the certificate's SubjectPublicKeyInfo: how Chromium is told to trust exactly this cert. */
async function spkiHash(certPath: string): Promise<string> {
  const cert = new X509Certificate(await readFile(certPath));
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

async function request(method: string, params: unknown): Promise<AnyFrame> {
  const response = await admin.request(method, params);
  expect(response, `${method} failed: ${JSON.stringify(response.error)}`).toMatchObject({ ok: true });
  return response;
}

function phoneContext(): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    userAgent: ANDROID_UA,
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  llm = await startFakeLlmServer();
  temp = await createTempHome();
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
      agents: { defaults: { model: 'openai/gpt-4o' } },
    }),
  );
  host = await startTestHost({
    home: temp.home,
    lanBind: '127.0.0.1',
    controlUiDir: uiDir,
    env: { HEARTH_SECRET_STORE: 'file' },
  });
  admin = (await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] })).socket;
  await request('auth.profiles.set', {
    id: 'openai-main',
    provider: 'openai',
    type: 'api_key',
    secret: 'sk-test-1234',
  });
  setup = (await request('device.pair.setup', {})).payload as Setup;
  expect(setup.webUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/#pair=/);
  const spki = await spkiHash(join(host.paths.identityDir, 'tls-cert.pem'));
  browser = await chromium.launch({
    executablePath: chromiumExecutable,
    args: [...chromiumArgs, `--ignore-certificate-errors-spki-list=${spki}`],
  });
});

test.afterAll(async () => {
  await browser?.close();
  admin?.close();
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});

test('a phone pairs from the QR link, is approved on the desktop, chats and answers an approval', async () => {
  const phoneCtx = await phoneContext();
  const phone = new PhonePage(await phoneCtx.newPage());
  await phone.openPairingLink(setup.webUrl);
  await expect(phone.waitingHeading).toBeVisible();
  await expect(phone.deviceName).toHaveText('Android phone');
  await expect(phone.deviceId).toHaveText(/^[0-9a-f]{4}…[0-9a-f]{4}$/);
  // The single-use code left the address bar as soon as it was read.
  expect(phone.page.url()).not.toContain('pair=');
  await phone.screenshot('pairing-waiting');

  // The desktop (the main listener, with the gateway token) sees the request live and approves it.
  const desktopCtx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const desktop = new ControlUiPage(await desktopCtx.newPage());
  await desktop.open(host.url, host.token, 'devices');
  const card = desktop.page.getByTestId('pair-request');
  await expect(card).toContainText('Android phone');
  await expect(card).toContainText('operator.approvals');
  await expect(card).toContainText('127.0.0.1');
  const shortId = (await phone.deviceId.textContent()) ?? '';
  await expect(card).toContainText(shortId);
  await desktop.page.screenshot({
    path: fileURLToPath(new URL('../artifacts/ui/phone-pairing-desktop.png', import.meta.url)),
  });
  await card.getByRole('button', { name: 'Approve' }).click();

  // The phone picks its device token up on the next try and opens the app.
  await phone.waitConnected();
  await expect(phone.pairingScreen).toHaveCount(0);
  expect(await phone.storedDeviceToken()).toMatch(/.{16,}/);
  await expect(desktop.page.getByTestId('device').filter({ hasText: 'Android phone' })).toBeVisible();
  // The desktop's own "Pair a phone": QR (as an <img>), link, pin and a countdown.
  await desktop.page.getByRole('button', { name: 'Pair a phone' }).click();
  const panel = desktop.page.getByTestId('pair-setup');
  await expect(panel.getByRole('img', { name: /Pairing QR code/ })).toBeVisible();
  await expect(panel.getByTestId('setup-link')).toHaveText(/^https:\/\/127\.0\.0\.1:\d+\/#pair=/);
  await expect(panel.getByTestId('setup-pin')).toHaveText(/^sha256:([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  await expect(panel.getByTestId('setup-countdown')).toHaveText(/^(10:00|9:\d\d)$/);
  await desktop.page.screenshot({
    path: fileURLToPath(new URL('../artifacts/ui/phone-pairing-desktop-qr.png', import.meta.url)),
  });

  // Chat from the phone.
  llm.script([{ type: 'text', text: 'Hello from the fake model, phone.' }]);
  await phone.go('chat');
  await phone.send('hi from my phone');
  await expect(phone.transcript).toContainText('Hello from the fake model, phone.', { timeout: 20_000 });
  await phone.screenshot('pairing-chat');

  // An approval raised elsewhere is answered on the phone.
  admin.send({
    type: 'req',
    id: 'approval-1',
    method: 'exec.approval.request',
    params: { command: 'make deploy', twoPhase: true, timeoutMs: 60_000 },
  });
  await admin.next((f) => f.type === 'res' && f.id === 'approval-1');
  await phone.go('approvals');
  const approval = phone.approvalCards.filter({ hasText: 'make deploy' });
  await expect(approval).toBeVisible();
  await phone.screenshot('pairing-approval');
  await approval.getByRole('button', { name: 'Allow once' }).click();
  const final = await admin.next(
    (f) => f.type === 'res' && f.id === 'approval-1' && (f.payload as { status?: string }).status !== 'accepted',
    10_000,
  );
  expect(final.payload).toMatchObject({ decision: 'allow-once' });

  // A reload connects with the device key + token (no code any more).
  await phone.page.reload();
  await phone.waitConnected();

  // Its token revoked on the desktop: the phone is cut off at once and says what to do.
  // The phone, not the desktop browser (which registered a device key of its own when it signed in).
  const listed = (await request('device.pair.list', {})).payload as {
    paired: { deviceId: string; online: boolean; displayName?: string; approvedVia: string }[];
  };
  const device = listed.paired.find((d) => d.online && d.displayName === 'Android phone');
  expect(device).toBeDefined();
  await request('device.token.revoke', { deviceId: device!.deviceId, role: 'operator' });
  await expect(phone.problem).toContainText('This device was removed');
  await expect(phone.problem).toContainText('scan a new code', { ignoreCase: true });
  await phone.screenshot('pairing-removed');

  // Re-pairing is one paste: same key, so the desktop asks "known device, new token?".
  const again = (await request('device.pair.setup', {})).payload as Setup;
  await phone.pasteCode(`hearth://pair?code=${again.code}`);
  await expect(phone.waitingHeading).toBeVisible();
  const repair = desktop.page.getByTestId('pair-request');
  await expect(repair).toContainText('Known device, new token?');
  await expect(repair).toContainText(shortId);
  await desktop.page.screenshot({
    path: fileURLToPath(new URL('../artifacts/ui/phone-pairing-desktop-repair.png', import.meta.url)),
  });
  await repair.getByRole('button', { name: 'Approve' }).click();
  await phone.waitConnected();
  await expect(phone.pairingScreen).toHaveCount(0);
  await desktopCtx.close();
  await phoneCtx.close();
});

test('a request declined on the desktop is explained on the phone', async () => {
  const fresh = (await request('device.pair.setup', {})).payload as Setup;
  const ctx = await phoneContext();
  const phone = new PhonePage(await ctx.newPage());
  await phone.openPairingLink(fresh.webUrl);
  await expect(phone.waitingHeading).toBeVisible();
  const listed = (await request('device.pair.list', {})).payload as { pending: { requestId: string }[] };
  await request('device.pair.reject', { requestId: listed.pending[0]!.requestId });
  await expect(phone.problem).toContainText('Pairing was declined on your computer');
  await phone.screenshot('pairing-declined');
  await ctx.close();
  // The phone's last retry opened a new request before it gave up: clear it away.
  const left = (await request('device.pair.list', {})).payload as { pending: { requestId: string }[] };
  for (const pending of left.pending) await request('device.pair.reject', { requestId: pending.requestId });
});

test('a setup code that was already used is refused on the phone with what to do next', async () => {
  const ctx = await phoneContext();
  const phone = new PhonePage(await ctx.newPage());
  await phone.openPairingLink(setup.webUrl);
  await expect(phone.problem).toContainText('This pairing code was already used');
  await expect(phone.problem).toContainText('Pair a phone');
  await phone.screenshot('pairing-used');
  await ctx.close();
});

test('the Control UI is installable: the manifest is linked and served', async () => {
  const html = await (await fetch(`${host.url}/`)).text();
  expect(html).toContain('rel="manifest" href="./manifest.webmanifest"');
  const manifest = (await (await fetch(`${host.url}/manifest.webmanifest`)).json()) as {
    name: string;
    display: string;
    icons: { src: string; sizes: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Hearth', display: 'standalone' });
  for (const icon of manifest.icons) {
    const response = await fetch(`${host.url}/${icon.src}`);
    expect(response.headers.get('content-type')).toBe('image/png');
  }
});
