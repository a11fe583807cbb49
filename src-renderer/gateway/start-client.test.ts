import { afterEach, describe, expect, it } from 'vitest';
import type { ClientFrame, ServerFrame } from '../../src-main/protocol/frames.js';
import { testHello } from '../testing/scripted-gateway.js';
import { type StartedClient, startClient } from './start-client.js';

let started: StartedClient | undefined;
afterEach(() => started?.client.dispose());

/** The preload bridge's shape, answering like the main process' in-process connection. */
function fakeBridge() {
  const listeners = new Set<(frame: ServerFrame) => void>();
  const sent: ClientFrame[] = [];
  const deliver = (frame: ServerFrame) =>
    queueMicrotask(() => {
      for (const listener of listeners) listener(frame);
    });
  let challenges = 0;
  const greet = () =>
    deliver({
      type: 'event',
      event: 'connect.challenge',
      payload: { nonce: `n${++challenges}`, ts: 1, capabilities: [] },
    });
  return {
    sent,
    /** Main replaced the window's connection (gateway restart): it greets again. */
    reopen: greet,
    bridge: {
      version: '0.1.0',
      gatewayUrl: 'http://127.0.0.1:18790',
      send(frame: ClientFrame) {
        sent.push(frame);
        if (frame.method === 'connect') deliver({ type: 'res', id: frame.id, ok: true, payload: testHello() });
      },
      onFrame(listener: (frame: ServerFrame) => void) {
        listeners.add(listener);
        greet();
        return () => listeners.delete(listener);
      },
    },
  };
}

const unusedSocket = class {
  constructor() {
    throw new Error('no WebSocket inside Electron');
  }
} as never;

describe('startClient', () => {
  it('uses the preload bridge inside Electron, connecting as the control UI without a token', async () => {
    const { bridge, sent } = fakeBridge();
    started = startClient({
      scope: { hearth: bridge },
      location: { protocol: 'app:', host: 'hearth', origin: 'app://hearth' },
      tokens: {
        hash: '',
        storage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
        clearHash: () => {},
      },
      WebSocket: unusedSocket,
      platform: 'linux',
      locale: 'en-US',
    });
    await started.client.waitForConnected();
    expect(started.kind).toBe('ipc');
    expect(started.gatewayOrigin).toBe('http://127.0.0.1:18790');
    expect(sent[0]).toMatchObject({
      method: 'connect',
      params: { client: { id: 'hearth-control-ui', mode: 'ui', platform: 'linux' }, locale: 'en-US' },
    });
    expect((sent[0]!.params as { auth?: unknown }).auth).toBeUndefined();
  });

  it('reconnects inside Electron when main replaces the connection and greets again', async () => {
    const { bridge, sent, reopen } = fakeBridge();
    started = startClient({
      scope: { hearth: bridge },
      location: { protocol: 'app:', host: 'hearth', origin: 'app://hearth' },
      tokens: {
        hash: '',
        storage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
        clearHash: () => {},
      },
      WebSocket: unusedSocket,
      platform: 'linux',
      locale: 'en-US',
    });
    await started.client.waitForConnected();
    const reconnected = new Promise<boolean>((resolve) => started!.client.onDidConnect((e) => resolve(e.reconnected)));
    reopen();
    expect(await reconnected).toBe(true);
    expect(sent.filter((f) => f.method === 'connect')).toHaveLength(2);
  });

  it('uses a WebSocket to its own origin in the browser', () => {
    const urls: string[] = [];
    const RecordingSocket = class {
      readyState = 0;
      constructor(url: string) {
        urls.push(url);
      }
      send() {}
      close() {}
      addEventListener() {}
    } as never;
    started = startClient({
      scope: {},
      location: { protocol: 'https:', host: 'hearth.local:18790', origin: 'https://hearth.local:18790' },
      tokens: {
        hash: '#token=t1',
        storage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
        clearHash: () => {},
      },
      WebSocket: RecordingSocket,
      platform: 'web',
      locale: 'en',
    });
    expect(started.kind).toBe('ws');
    expect(urls).toEqual(['wss://hearth.local:18790/']);
  });
});
