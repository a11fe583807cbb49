import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectParams, connectRaw, createTestDeviceKey, openRawSocket } from '../testing/raw-gateway-socket.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import type { GatewayCore } from './gateway-core.js';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host.close();
});

describe('handshake', () => {
  it('sends connect.challenge first, with a nonce and an integer ts', async () => {
    const socket = await openRawSocket(host.wsUrl);
    const first = await socket.next(() => true);
    expect(first).toMatchObject({ type: 'event', event: 'connect.challenge' });
    expect(first.seq).toBeUndefined();
    const payload = first.payload as { nonce: string; ts: number };
    expect(payload.nonce.length).toBeGreaterThan(10);
    expect(Number.isInteger(payload.ts)).toBe(true);
    socket.close();
  });

  it('accepts the OpenClaw CLI connect (cli/cli, token, no device) and keeps its scopes', async () => {
    const { socket, hello } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.read'] });
    expect(hello).toMatchObject({
      ok: true,
      payload: {
        type: 'hello-ok',
        protocol: 4,
        auth: { role: 'operator', scopes: ['operator.read'], method: 'token' },
      },
    });
    const payload = hello.payload as { features: { methods: string[] }; policy: { tickIntervalMs: number } };
    expect(payload.features.methods).toEqual(expect.arrayContaining(['health', 'status', 'config.get']));
    const health = await socket.request('health', {});
    expect(health).toMatchObject({ ok: true, payload: { ok: true } });
    const status = await socket.request('status', {});
    expect(status).toMatchObject({ ok: true, payload: { protocol: 4 } });
    socket.close();
  });

  it('refuses a first request that is not connect, then closes 1008', async () => {
    const socket = await openRawSocket(host.wsUrl);
    await socket.challenge();
    const res = await socket.request('health', {});
    expect(res.error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'invalid handshake: first request must be connect',
    });
    expect((await socket.closed).code).toBe(1008);
  });

  it('closes 1000 on non-JSON before connect and 1008 on a JSON non-request', async () => {
    const a = await openRawSocket(host.wsUrl);
    a.sendText('{not json');
    expect((await a.closed).code).toBe(1000);
    const b = await openRawSocket(host.wsUrl);
    b.send({ type: 'event', event: 'x' });
    expect(await b.closed).toMatchObject({ code: 1008, reason: 'invalid request frame' });
  });

  it('names the bad field of invalid connect params', async () => {
    const socket = await openRawSocket(host.wsUrl);
    await socket.challenge();
    const res = await socket.request('connect', {
      minProtocol: 4,
      maxProtocol: 4,
      client: { id: 'nope', version: '1', platform: 'linux', mode: 'cli' },
    });
    expect(res.error?.message).toMatch(/^invalid connect params: at \/client\/id: /);
    expect((await socket.closed).code).toBe(1008);
  });

  it('rejects a protocol range without 4 with PROTOCOL_MISMATCH and close 1002', async () => {
    const socket = await openRawSocket(host.wsUrl);
    await socket.challenge();
    const res = await socket.request('connect', {
      minProtocol: 1,
      maxProtocol: 3,
      client: { id: 'cli', version: '1', platform: 'linux', mode: 'cli' },
      auth: { token: host.token },
    });
    expect(res.error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'protocol mismatch',
      details: { code: 'PROTOCOL_MISMATCH', expectedProtocol: 4, minimumProbeProtocol: 3 },
    });
    expect((await socket.closed).code).toBe(1002);
  });

  it('refuses a wrong token with AUTH_TOKEN_MISMATCH, and no secret at all with DEVICE_IDENTITY_REQUIRED', async () => {
    const wrong = await connectRaw(host.wsUrl, { token: 'definitely-not-the-token' });
    expect(wrong.hello.error).toMatchObject({ code: 'INVALID_REQUEST', details: { code: 'AUTH_TOKEN_MISMATCH' } });
    expect((await wrong.socket.closed).code).toBe(1008);
    const none = await connectRaw(host.wsUrl, {});
    expect(none.hello.error).toMatchObject({ code: 'NOT_PAIRED', details: { code: 'DEVICE_IDENTITY_REQUIRED' } });
  });

  it('closes 1009 on a frame over 64 KiB before connect', async () => {
    const socket = await openRawSocket(host.wsUrl);
    await socket.challenge();
    socket.sendText(JSON.stringify({ type: 'req', id: '1', method: 'connect', params: { pad: 'x'.repeat(70_000) } }));
    expect((await socket.closed).code).toBe(1009);
  });

  it('resets scopes to [] for a token-only client that is not the CLI', async () => {
    const { socket, hello } = await connectRaw(host.wsUrl, {
      token: host.token,
      clientId: 'webchat',
      clientMode: 'webchat',
      scopes: ['operator.admin'],
      headers: { origin: 'https://evil.example' },
    });
    expect(hello.payload).toMatchObject({ auth: { scopes: [] } });
    const res = await socket.request('config.get', {});
    expect(res.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { code: 'MISSING_SCOPE', missingScope: 'operator.read' },
    });
    socket.close();
  });
});

describe('device identity', () => {
  it('auto-pairs a new local device silently and lets it reconnect with its device token', async () => {
    const device = createTestDeviceKey();
    const first = await connectRaw(host.wsUrl, {
      token: host.token,
      device,
      scopes: ['operator.read', 'operator.write'],
    });
    const auth = (first.hello.payload as { auth: { deviceToken?: string; method: string } }).auth;
    expect(auth.deviceToken).toBeTruthy();
    first.socket.close();
    const again = await connectRaw(host.wsUrl, { deviceToken: auth.deviceToken, device, scopes: ['operator.read'] });
    expect(again.hello).toMatchObject({
      ok: true,
      payload: { auth: { method: 'device-token', scopes: ['operator.read'] } },
    });
    again.socket.close();
    const greedy = await connectRaw(host.wsUrl, { deviceToken: auth.deviceToken, device, scopes: ['operator.admin'] });
    expect(greedy.hello.error).toMatchObject({ details: { code: 'AUTH_SCOPE_MISMATCH' } });
    const wrongToken = await connectRaw(host.wsUrl, { deviceToken: 'not-it', device, scopes: ['operator.read'] });
    expect(wrongToken.hello.error).toMatchObject({ details: { code: 'AUTH_DEVICE_TOKEN_MISMATCH' } });
  });

  it('refuses a stale signature, a signature over another nonce, and a key that is not the id', async () => {
    const device = createTestDeviceKey();
    const stale = await connectRaw(host.wsUrl, { token: host.token, device, signedAt: Date.now() - 121_000 });
    expect(stale.hello.error).toMatchObject({ details: { code: 'DEVICE_AUTH_SIGNATURE_EXPIRED' } });
    expect((await stale.socket.closed).code).toBe(1008);

    const socket = await openRawSocket(host.wsUrl);
    const challenge = await socket.challenge();
    // A replay: a proof made for another socket's challenge.
    const replay = connectParams({ nonce: 'some-other-challenge', ts: challenge.ts }, { token: host.token, device });
    const res = await socket.request('connect', replay);
    expect(res.error).toMatchObject({ details: { code: 'DEVICE_AUTH_NONCE_MISMATCH' } });

    const other = createTestDeviceKey();
    const mismatched = await connectRaw(host.wsUrl, {
      token: host.token,
      device: { ...device, publicKey: other.publicKey },
    });
    expect(mismatched.hello.error).toMatchObject({ details: { code: 'DEVICE_AUTH_DEVICE_ID_MISMATCH' } });
  });

  it('never pairs a device for a page of another origin: the token buys it no scopes', async () => {
    const device = createTestDeviceKey();
    const { hello, socket } = await connectRaw(host.wsUrl, {
      token: host.token,
      device,
      clientId: 'webchat',
      clientMode: 'webchat',
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(hello).toMatchObject({ ok: true, payload: { auth: { scopes: [] } } });
    expect((hello.payload as { auth: { deviceToken?: string } }).auth.deviceToken).toBeUndefined();
    const core = host.gateway as GatewayCore;
    expect(core.devices.get(device.id)).toBeUndefined();
    expect(core.pairing.list().some((r) => r.deviceId === device.id)).toBe(false);
    socket.close();
  });
});
