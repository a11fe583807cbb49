import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { FakeIpcMain, FakeWebContents, flush } from '../testing/app/fake-electron.js';
import { createFakeInProcessGateway } from '../testing/app/fake-in-process-gateway.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { APP_ENTRY_URL, APP_ORIGIN } from './app-origin.js';
import { createIpcBridge, FRAME_CHANNEL, REOPEN_DELAY_MS } from './ipc-bridge.js';

function setup() {
  const ipcMain = new FakeIpcMain();
  const gateway = createFakeInProcessGateway();
  const logger = createMemoryLogger();
  const clock = createFakeClock();
  const bridge = createIpcBridge({ ipcMain, gateway, appOrigin: APP_ORIGIN, clock, logger });
  const window = new FakeWebContents();
  bridge.attach(window);
  window.emit('dom-ready');
  window.sent.length = 0; // the greeting is checked in its own test
  return { ipcMain, gateway, logger, clock, bridge, window };
}

const request = { type: 'req', id: 'r1', method: 'health', params: {} };
const challenges = (window: FakeWebContents) =>
  window.framesSent(FRAME_CHANNEL).filter((f) => (f as { event?: string }).event === 'connect.challenge');

describe('IPC bridge', () => {
  it('opens a connection when the page is ready, so the page receives the challenge', () => {
    const ipcMain = new FakeIpcMain();
    const gateway = createFakeInProcessGateway();
    const bridge = createIpcBridge({
      ipcMain,
      gateway,
      appOrigin: APP_ORIGIN,
      clock: createFakeClock(),
      logger: createMemoryLogger(),
    });
    const window = new FakeWebContents();
    bridge.attach(window);
    expect(gateway.connections).toHaveLength(0);
    window.emit('dom-ready');
    expect(challenges(window)).toEqual([
      { type: 'event', event: 'connect.challenge', payload: { nonce: 'nonce-1', ts: 0 } },
    ]);
    bridge.dispose();
  });

  it('forwards a valid frame into the window’s in-process connection and sends the answer back', async () => {
    const { ipcMain, gateway, window, bridge } = setup();
    ipcMain.deliver(FRAME_CHANNEL, window, APP_ENTRY_URL, request);
    await flush();
    expect(gateway.connections).toHaveLength(1);
    expect(gateway.connections[0]!.received).toEqual([request]);
    expect(window.framesSent(FRAME_CHANNEL)).toEqual([
      { type: 'res', id: 'r1', ok: true, payload: { echo: 'health' } },
    ]);
    bridge.dispose();
  });

  it('pushes gateway events to the window over the frame channel', () => {
    const { gateway, window, bridge } = setup();
    gateway.connections[0]!.emit({ type: 'event', event: 'tick', payload: { ts: 1 }, seq: 1 });
    expect(window.framesSent(FRAME_CHANNEL)).toEqual([{ type: 'event', event: 'tick', payload: { ts: 1 }, seq: 1 }]);
    bridge.dispose();
  });

  it('answers an invalid frame with INVALID_REQUEST naming the problem and forwards nothing', async () => {
    const { ipcMain, gateway, window, bridge } = setup();
    ipcMain.deliver(FRAME_CHANNEL, window, APP_ENTRY_URL, { type: 'req', id: 'r2', method: 'health', extra: 1 });
    ipcMain.deliver(FRAME_CHANNEL, window, APP_ENTRY_URL, { type: 'req', method: 'health' });
    ipcMain.deliver(FRAME_CHANNEL, window, APP_ENTRY_URL, 'not an object');
    ipcMain.deliver(FRAME_CHANNEL, window, APP_ENTRY_URL, request, 'second argument');
    await flush();
    expect(gateway.connections[0]!.received).toEqual([]);
    const answers = window.framesSent(FRAME_CHANNEL) as {
      id: string;
      ok: boolean;
      error: { code: string; message: string };
    }[];
    expect(answers.map((a) => [a.id, a.ok, a.error.code, a.error.message])).toEqual([
      ['r2', false, 'INVALID_REQUEST', 'invalid request frame: must NOT have additional properties (extra)'],
      ['', false, 'INVALID_REQUEST', "invalid request frame: must have required property 'id'"],
      ['', false, 'INVALID_REQUEST', expect.stringMatching(/^invalid request frame: /)],
      ['r1', false, 'INVALID_REQUEST', 'invalid request frame: expected one frame, got 2'],
    ]);
    bridge.dispose();
  });

  it('drops frames from a window it does not know, from another origin, or from a subframe', async () => {
    const { ipcMain, gateway, window, logger, bridge } = setup();
    const stranger = new FakeWebContents();
    ipcMain.deliver(FRAME_CHANNEL, stranger, APP_ENTRY_URL, request);
    ipcMain.deliver(FRAME_CHANNEL, window, 'https://evil.example/index.html', request);
    ipcMain.deliver(FRAME_CHANNEL, window, null, request);
    ipcMain.deliverFromSubframe(FRAME_CHANNEL, window, APP_ENTRY_URL, request);
    await flush();
    expect(gateway.connections[0]!.received).toEqual([]);
    expect(window.sent).toEqual([]);
    expect(stranger.sent).toEqual([]);
    expect(logger.entries.filter((e) => e.message === 'dropped a frame from an untrusted sender')).toHaveLength(4);
    bridge.dispose();
  });

  it('gives each window its own connection and closes it when the window goes away', async () => {
    const { ipcMain, gateway, window, bridge, clock } = setup();
    const second = new FakeWebContents();
    bridge.attach(second);
    second.emit('dom-ready');
    expect(gateway.connections).toHaveLength(2);
    ipcMain.deliver(FRAME_CHANNEL, second, APP_ENTRY_URL, request);
    await flush();
    expect(gateway.connections[1]!.received).toEqual([request]);
    expect(window.sent).toEqual([]);
    second.destroy();
    await flush();
    clock.advance(REOPEN_DELAY_MS * 10);
    expect(gateway.connections[1]!.isClosed).toBe(true);
    expect(gateway.connections[0]!.isClosed).toBe(false);
    expect(gateway.connections).toHaveLength(2);
    expect(bridge.openConnections).toBe(1);
    bridge.dispose();
    expect(gateway.connections[0]!.isClosed).toBe(true);
    expect(ipcMain.listenerCount(FRAME_CHANNEL)).toBe(0);
  });

  it('starts a fresh connection, with a fresh challenge, for every page load', () => {
    const { gateway, window, bridge } = setup();
    window.emit('dom-ready');
    expect(gateway.connections).toHaveLength(2);
    expect(gateway.connections[0]!.isClosed).toBe(true);
    expect(challenges(window)).toHaveLength(1);
    bridge.dispose();
  });

  it('offers a new connection shortly after the gateway closed the old one', async () => {
    const { gateway, window, bridge, clock } = setup();
    gateway.connections[0]!.close(1012, 'gateway restarting');
    await flush();
    expect(bridge.openConnections).toBe(0);
    clock.advance(REOPEN_DELAY_MS);
    expect(gateway.connections).toHaveLength(2);
    expect(challenges(window)).toEqual([
      { type: 'event', event: 'connect.challenge', payload: { nonce: 'nonce-2', ts: 0 } },
    ]);
    bridge.dispose();
  });

  it('refuses to attach the same window twice', () => {
    const { window, bridge } = setup();
    expect(() => bridge.attach(window)).toThrow(/already attached/);
    bridge.dispose();
  });
});
