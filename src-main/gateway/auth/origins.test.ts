import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../app/app-origin.js';
import { decodeSetupCode } from '../../protocol/index.js';
import {
  type AnyFrame,
  connectRaw,
  createTestDeviceKey,
  type RawGatewaySocket,
} from '../../testing/raw-gateway-socket.js';
import { createTempHome } from '../../testing/temp-home.js';
import { startTestHost, type TestHost } from '../../testing/test-host.js';
import type { GatewayCore } from '../gateway-core.js';
import { DESKTOP_APP_ORIGIN } from './own-origins.js';

// Issue 17: the Origin is decided by the browser, never by what the client claims. A page
// of any other origin gets no operator scopes, whatever client.id/mode/device it sends;
// with auth.mode "none" no page connects at all; and no page can lock the Control UI out.

let host: TestHost;
let core: GatewayCore;
const sockets: RawGatewaySocket[] = [];

beforeAll(async () => {
  host = await startTestHost({ lanBind: '127.0.0.1', capabilities: false });
  core = host.gateway as GatewayCore;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await host.close();
});

const detail = (frame: AnyFrame) => (frame.error?.details as { code?: string } | undefined)?.code;

const claimedClients: [string, string][] = [
  ['gateway-client', 'backend'],
  ['cli', 'cli'],
  ['hearth-cli', 'cli'],
  ['hearth-control-ui', 'ui'],
  ['openclaw-control-ui', 'ui'],
  ['webchat-ui', 'webchat'],
  ['hearth-desktop', 'ui'],
  ['test', 'test'],
];

function foreignOrigins(port: number): string[] {
  return [
    'http://localhost:5173',
    `http://127.0.0.1:${port + 1}`,
    `https://127.0.0.1:${port}`,
    `http://evil.example:${port}`,
    `http://127.0.0.1.evil.example:${port}`,
    'null',
    'file://',
    'chrome-extension://abcdefghijklmnop',
    `http://127.0.0.1:${port}/path`,
  ];
}

describe('a page of another origin', () => {
  it('gets no operator scopes with the gateway token, whatever client it claims', async () => {
    for (const origin of foreignOrigins(host.port)) {
      for (const [clientId, clientMode] of claimedClients) {
        const { socket, hello } = await connectRaw(host.wsUrl, {
          token: host.token,
          clientId,
          clientMode,
          scopes: ['operator.admin'],
          headers: { origin },
        });
        expect(hello.ok, `${origin} as ${clientId}/${clientMode}`).toBe(true);
        expect((hello.payload as { auth: { scopes: string[] } }).auth.scopes, `${origin} as ${clientId}`).toEqual([]);
        socket.close();
      }
    }
    // And what that means: the admin-only and read methods are closed to it.
    const { socket } = await connectRaw(host.wsUrl, {
      token: host.token,
      clientId: 'gateway-client',
      clientMode: 'backend',
      scopes: ['operator.admin'],
      headers: { origin: 'http://localhost:5173' },
    });
    expect((await socket.request('config.get', {})).error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await socket.request('device.pair.list', {})).error).toMatchObject({ code: 'FORBIDDEN' });
    socket.close();
  });

  it('cannot pair, use a device token, or use a setup code', async () => {
    const origin = 'http://localhost:5173';
    // A paired device's key and token, replayed by a page.
    const key = createTestDeviceKey();
    const first = await connectRaw(host.wsUrl, { token: host.token, device: key, scopes: ['operator.read'] });
    const deviceToken = (first.hello.payload as { auth: { deviceToken: string } }).auth.deviceToken;
    first.socket.close();
    const replay = await connectRaw(host.wsUrl, {
      deviceToken,
      device: key,
      scopes: ['operator.read'],
      headers: { origin },
    });
    expect(replay.hello.error).toMatchObject({ code: 'FORBIDDEN', details: { code: 'ORIGIN_NOT_ALLOWED' } });

    // A setup code, on the LAN listener, from another site.
    const admin = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
    sockets.push(admin.socket);
    const setup = (await admin.socket.request('device.pair.setup', {})).payload as { code: string; urls: string[] };
    const cert = await readFile(join(host.paths.identityDir, 'tls-cert.pem'), 'utf8');
    const phone = createTestDeviceKey();
    const lanPort = Number(new URL(setup.urls[0]!).port);
    const viaCode = await connectRaw(setup.urls[0]!, {
      bootstrapToken: decodeSetupCode(setup.code).bootstrapToken,
      device: phone,
      scopes: ['operator.read'],
      ca: cert,
      headers: { origin: `https://evil.example:${lanPort}` },
    });
    expect(viaCode.hello.error).toMatchObject({ code: 'FORBIDDEN', details: { code: 'ORIGIN_NOT_ALLOWED' } });
    expect(core.pairing.list().some((r) => r.deviceId === phone.id)).toBe(false);

    // The LAN listener's own page (the phone's Control UI) may ask to pair with the same code.
    const own = await connectRaw(setup.urls[0]!, {
      bootstrapToken: decodeSetupCode(setup.code).bootstrapToken,
      device: phone,
      scopes: ['operator.read'],
      ca: cert,
      headers: { origin: `https://127.0.0.1:${lanPort}` },
    });
    expect(own.hello.error).toMatchObject({ code: 'NOT_PAIRED', details: { code: 'PAIRING_REQUIRED' } });
    own.socket.close();
  });
});

describe("this gateway's own Control UI", () => {
  it('keeps its scopes from its own origin, by address or localhost, and from the desktop window origin', async () => {
    expect(DESKTOP_APP_ORIGIN).toBe(APP_ORIGIN);
    for (const origin of [`http://127.0.0.1:${host.port}`, `http://localhost:${host.port}`, APP_ORIGIN]) {
      const { socket, hello } = await connectRaw(host.wsUrl, {
        token: host.token,
        clientId: 'hearth-control-ui',
        clientMode: 'ui',
        scopes: ['operator.admin'],
        headers: { origin },
      });
      expect(hello, origin).toMatchObject({ ok: true, payload: { auth: { scopes: ['operator.admin'] } } });
      socket.close();
    }
  });
});

describe('the auth-failure lockout', () => {
  it('lets no page lock the Control UI (or another page) out', async () => {
    const evil = 'http://evil.example:1234';
    for (let i = 0; i < 10; i++) {
      const { hello } = await connectRaw(host.wsUrl, {
        token: `wrong-${i}-${'x'.repeat(24)}`,
        headers: { origin: evil },
      });
      expect(detail(hello)).toBe('AUTH_TOKEN_MISMATCH');
    }
    const locked = await connectRaw(host.wsUrl, { token: host.token, headers: { origin: evil } });
    expect(detail(locked.hello)).toBe('AUTH_RATE_LIMITED');

    const ui = await connectRaw(host.wsUrl, {
      token: host.token,
      clientId: 'hearth-control-ui',
      clientMode: 'ui',
      scopes: ['operator.read'],
      headers: { origin: `http://127.0.0.1:${host.port}` },
    });
    expect(ui.hello).toMatchObject({ ok: true, payload: { auth: { scopes: ['operator.read'] } } });
    ui.socket.close();
    const cli = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.read'] });
    expect(cli.hello).toMatchObject({ ok: true });
    cli.socket.close();
    // A fresh Origin per attempt is no way around the lockout.
    const other = await connectRaw(host.wsUrl, { token: host.token, headers: { origin: 'http://other.example' } });
    expect(detail(other.hello)).toBe('AUTH_RATE_LIMITED');
  });

  it('never locks out the own origin on loopback, however often it fails', async () => {
    const origin = `http://localhost:${host.port}`;
    for (let i = 0; i < 12; i++) {
      const { hello } = await connectRaw(host.wsUrl, {
        token: 'nope',
        clientId: 'hearth-control-ui',
        clientMode: 'ui',
        headers: { origin },
      });
      expect(detail(hello)).toBe('AUTH_TOKEN_MISMATCH');
    }
    const { hello, socket } = await connectRaw(host.wsUrl, {
      token: host.token,
      clientId: 'hearth-control-ui',
      clientMode: 'ui',
      headers: { origin },
    });
    expect(hello.ok).toBe(true);
    socket.close();
  });
});

describe('auth.mode "none"', () => {
  let open: TestHost;
  let temp: { home: string; cleanup(): Promise<void> };
  beforeAll(async () => {
    temp = await createTempHome();
    await writeFile(join(temp.home, 'hearth.json'), JSON.stringify({ gateway: { auth: { mode: 'none' } } }));
    open = await startTestHost({ home: temp.home, capabilities: false });
  });
  afterAll(async () => {
    await open.close();
    await temp.cleanup();
  });

  it('refuses every web page, its own origin included; a local process still connects', async () => {
    for (const origin of [`http://127.0.0.1:${open.port}`, 'http://localhost:5173', 'null', 'https://evil.example']) {
      const { hello, socket } = await connectRaw(open.wsUrl, {
        clientId: 'hearth-control-ui',
        clientMode: 'ui',
        scopes: ['operator.admin'],
        headers: { origin },
      });
      expect(hello.error, origin).toMatchObject({ code: 'FORBIDDEN', details: { code: 'ORIGIN_NOT_ALLOWED' } });
      expect((await socket.closed).code).toBe(1008);
    }
    const device = await connectRaw(open.wsUrl, {
      device: createTestDeviceKey(),
      scopes: ['operator.admin'],
      headers: { origin: 'http://localhost:5173' },
    });
    expect(detail(device.hello)).toBe('ORIGIN_NOT_ALLOWED');
    const cli = await connectRaw(open.wsUrl, { scopes: ['operator.read'] });
    expect(cli.hello).toMatchObject({ ok: true, payload: { auth: { method: 'none', scopes: ['operator.read'] } } });
    cli.socket.close();
  });
});
