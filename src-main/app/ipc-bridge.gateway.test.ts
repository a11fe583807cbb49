import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { DeviceRegistry } from '../gateway/auth/device-registry.js';
import { GatewayCore } from '../gateway/gateway-core.js';
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { FakeIpcMain, FakeWebContents, flush } from '../testing/app/fake-electron.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { APP_ENTRY_URL, APP_ORIGIN } from './app-origin.js';
import { createIpcBridge, FRAME_CHANNEL } from './ipc-bridge.js';

// The bridge against the real gateway core: only Electron (ipcMain, webContents) is faked.

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-ipc-gateway-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const connect = {
  type: 'req',
  id: 'c1',
  method: 'connect',
  params: {
    minProtocol: PROTOCOL_VERSION,
    maxProtocol: PROTOCOL_VERSION,
    client: { id: 'hearth-control-ui', mode: 'ui', version: '0.1.0', platform: 'linux' },
    role: 'operator',
    scopes: ['operator.read', 'operator.write', 'operator.approvals'],
  },
};

describe('IPC bridge with the real gateway core', () => {
  it('carries the handshake: challenge out, connect in, hello-ok back, without a token', async () => {
    const clock = createFakeClock();
    const log = createMemoryLogger();
    const devices = await DeviceRegistry.open(join(home, 'identity'), clock, log);
    const core = new GatewayCore({
      clock,
      log,
      version: '0.1.0',
      auth: { mode: 'token', token: 'gw-secret' },
      devices,
    });
    const ipcMain = new FakeIpcMain();
    const bridge = createIpcBridge({ ipcMain, gateway: core, appOrigin: APP_ORIGIN, clock, logger: log });
    const window = new FakeWebContents();
    bridge.attach(window);
    window.emit('dom-ready');

    const frames = () => window.framesSent(FRAME_CHANNEL) as Record<string, unknown>[];
    expect(frames()[0]).toMatchObject({ type: 'event', event: 'connect.challenge' });

    ipcMain.deliver(FRAME_CHANNEL, window, APP_ENTRY_URL, connect);
    for (let i = 0; i < 20 && !frames().some((f) => f.id === 'c1'); i++) await flush();
    const hello = frames().find((f) => f.id === 'c1');
    expect(hello).toMatchObject({ type: 'res', ok: true, payload: { type: 'hello-ok', protocol: PROTOCOL_VERSION } });

    // After the handshake, bad frames still get the WebSocket's answer.
    ipcMain.deliver(FRAME_CHANNEL, window, APP_ENTRY_URL, { type: 'req', id: 'x', method: 'health', junk: true });
    expect(frames().at(-1)).toMatchObject({ id: 'x', ok: false, error: { code: 'INVALID_REQUEST' } });

    window.destroy();
    bridge.dispose();
    core.dispose();
  });
});
