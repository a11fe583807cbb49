import { afterEach, describe, expect, it } from 'vitest';
import { buildDeviceAuthPayloadV3 } from '../../src-main/protocol/device-auth.js';
import type { ClientFrame, ServerFrame } from '../../src-main/protocol/frames.js';
import { testHello } from '../testing/scripted-gateway.js';
import { CONTROL_UI_SCOPES } from './connect-params.js';
import { loadOrCreateDeviceIdentity, memoryKeyStore } from './device-identity.js';
import { createDeviceCredentials } from './device-identity-credentials.js';
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
        storage: { removeItem: () => {} },
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
        storage: { removeItem: () => {} },
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
        storage: { removeItem: () => {} },
        clearHash: () => {},
      },
      WebSocket: RecordingSocket,
      platform: 'web',
      locale: 'en',
    });
    expect(started.kind).toBe('ws');
    expect(urls).toEqual(['wss://hearth.local:18790/']);
  });

  describe('in the browser, the gateway token', () => {
    /** A gateway behind a fake WebSocket: challenge, then the answer `answer` gives each connect. */
    function fakeGateway(
      answer: (params: ConnectFrameParams, attempt: number) => ServerFrame['payload'] | WireRefusal,
    ) {
      const connects: ConnectFrameParams[] = [];
      const Socket = class {
        readyState = 0;
        private readonly listeners = new Map<string, ((event: unknown) => void)[]>();
        constructor() {
          queueMicrotask(() => {
            this.readyState = 1;
            this.fire('open', {});
            this.deliver({
              type: 'event',
              event: 'connect.challenge',
              payload: { nonce: `n${connects.length}`, ts: 7, capabilities: [] },
            });
          });
        }
        addEventListener(type: string, listener: (event: unknown) => void) {
          this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
        }
        send(text: string) {
          const frame = JSON.parse(text) as { id: string; method: string; params: ConnectFrameParams };
          if (frame.method !== 'connect') return;
          connects.push(frame.params);
          const result = answer(frame.params, connects.length);
          if (result && typeof result === 'object' && 'refusal' in result) {
            this.deliver({ type: 'res', id: frame.id, ok: false, error: (result as WireRefusal).refusal });
            queueMicrotask(() => this.close(1008, 'refused'));
          } else this.deliver({ type: 'res', id: frame.id, ok: true, payload: result });
        }
        close(code = 1000, reason = '') {
          if (this.readyState === 3) return;
          this.readyState = 3;
          queueMicrotask(() => this.fire('close', { code, reason }));
        }
        private deliver(frame: unknown) {
          queueMicrotask(() => this.fire('message', { data: JSON.stringify(frame) }));
        }
        private fire(type: string, event: unknown) {
          for (const listener of this.listeners.get(type) ?? []) listener(event);
        }
      };
      return { connects, Socket: Socket as never };
    }

    function memoryStorage(initial: Record<string, string> = {}) {
      const map = new Map<string, string>(Object.entries(initial));
      return {
        map,
        getItem: (k: string) => map.get(k) ?? null,
        setItem: (k: string, v: string) => void map.set(k, v),
        removeItem: (k: string) => void map.delete(k),
      };
    }

    const keyStore = memoryKeyStore();
    const deviceOn = (storage: ReturnType<typeof memoryStorage>) =>
      createDeviceCredentials({
        storage,
        loadIdentity: () => loadOrCreateDeviceIdentity({ store: keyStore, subtle: globalThis.crypto.subtle }),
      });
    const browser = { protocol: 'http:', host: '127.0.0.1:18790', origin: 'http://127.0.0.1:18790' };
    const issuedHello = () => ({
      ...testHello(),
      auth: { role: 'operator', scopes: CONTROL_UI_SCOPES, method: 'token', deviceToken: 'device-token-1' },
    });

    it('is used once, with a signed device proof, and never stored; the device key and token sign in after that', async () => {
      const storage = memoryStorage({ 'hearth.gatewayToken': 'left-by-an-old-version' });
      const gateway = fakeGateway((_params, attempt) => (attempt === 1 ? issuedHello() : testHello()));
      let cleared = false;
      started = startClient({
        scope: {},
        location: browser,
        tokens: { hash: '#token=the-gateway-token', storage, clearHash: () => (cleared = true) },
        WebSocket: gateway.Socket,
        platform: 'web',
        locale: 'en',
        device: deviceOn(storage),
      });
      await started.client.waitForConnected();
      expect(cleared).toBe(true);
      const first = gateway.connects[0]!;
      expect(first.auth).toEqual({ token: 'the-gateway-token' });
      expect(first.scopes).toEqual(CONTROL_UI_SCOPES);
      // The proof signs this socket's challenge and the token (PROTOCOL.md §3 v3 payload).
      const identity = await loadOrCreateDeviceIdentity({ store: keyStore, subtle: globalThis.crypto.subtle });
      expect(first.device).toMatchObject({ id: identity.id, publicKey: identity.publicKey, nonce: 'n0', signedAt: 7 });
      const payload = buildDeviceAuthPayloadV3({
        deviceId: identity.id,
        clientId: 'hearth-control-ui',
        clientMode: 'ui',
        role: 'operator',
        scopes: CONTROL_UI_SCOPES,
        signedAt: 7,
        token: 'the-gateway-token',
        nonce: 'n0',
        platform: 'web',
      });
      const publicKey = await globalThis.crypto.subtle.importKey(
        'raw',
        Uint8Array.from(atob(identity.publicKey.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
        { name: 'Ed25519' },
        false,
        ['verify'],
      );
      const signature = Uint8Array.from(atob(first.device!.signature.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
        c.charCodeAt(0),
      );
      expect(
        await globalThis.crypto.subtle.verify(
          { name: 'Ed25519' },
          publicKey,
          signature,
          new TextEncoder().encode(payload),
        ),
      ).toBe(true);

      // Nothing any script of the origin can read holds the gateway token.
      expect([...storage.map.values()].join(' ')).not.toContain('the-gateway-token');
      expect(storage.map.has('hearth.gatewayToken')).toBe(false);
      expect(storage.map.get('hearth.deviceToken')).toBe('device-token-1');

      // Reconnect (and a reload: a new client on the same storage) uses the device token only.
      started.restart!();
      await new Promise<void>((resolve) => {
        const stop = started!.client.onDidConnect(() => {
          stop.dispose();
          resolve();
        });
      });
      expect(gateway.connects[1]!.auth).toEqual({ deviceToken: 'device-token-1' });
      expect(gateway.connects[1]!.scopes).toEqual(CONTROL_UI_SCOPES);
      expect(JSON.stringify(gateway.connects[1])).not.toContain('the-gateway-token');
    });

    it('goes back to the token prompt when the desktop revoked this browser, and a pasted token signs in again', async () => {
      const storage = memoryStorage();
      const device = deviceOn(storage);
      device.saveToken('revoked-token', { scopes: CONTROL_UI_SCOPES, source: 'sign-in' });
      const gateway = fakeGateway((params) =>
        params.auth?.deviceToken === 'revoked-token'
          ? {
              refusal: {
                code: 'INVALID_REQUEST',
                message: 'unauthorized: device token mismatch',
                details: { code: 'AUTH_DEVICE_TOKEN_MISMATCH' },
              },
            }
          : issuedHello(),
      );
      started = startClient({
        scope: {},
        location: browser,
        tokens: { hash: '', storage, clearHash: () => {} },
        WebSocket: gateway.Socket,
        platform: 'web',
        locale: 'en',
        device,
      });
      await new Promise<void>((resolve) => {
        const stop = started!.client.onDidChangeState((state) => {
          if (state.status !== 'auth-failed') return;
          stop.dispose();
          resolve();
        });
      });
      expect(device.token()).toBeUndefined();
      started.useToken!('pasted-gateway-token');
      await started.client.waitForConnected();
      expect(gateway.connects.at(-1)!.auth).toEqual({ token: 'pasted-gateway-token' });
      expect(device.token()).toBe('device-token-1');
      expect([...storage.map.values()].join(' ')).not.toContain('pasted-gateway-token');
    });

    it('falls back to the token alone, still only in memory, where no device key can be made', async () => {
      const storage = memoryStorage();
      const gateway = fakeGateway(() => testHello());
      started = startClient({
        scope: {},
        location: browser,
        tokens: { hash: '#token=t2', storage, clearHash: () => {} },
        WebSocket: gateway.Socket,
        platform: 'web',
        locale: 'en',
        device: createDeviceCredentials({
          storage,
          loadIdentity: () => Promise.reject(new Error('this page needs a secure (https) connection')),
        }),
      });
      await started.client.waitForConnected();
      expect(gateway.connects[0]!.auth).toEqual({ token: 't2' });
      expect(gateway.connects[0]!.device).toBeUndefined();
      expect([...storage.map.values()].join(' ')).not.toContain('t2');
    });
  });
});

interface ConnectFrameParams {
  auth?: { token?: string; deviceToken?: string };
  scopes?: string[];
  device?: { id: string; publicKey: string; signature: string; nonce: string; signedAt: number };
}
type WireRefusal = { refusal: { code: string; message: string; details?: unknown } };
