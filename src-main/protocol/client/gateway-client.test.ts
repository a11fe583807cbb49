import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createFakeClock, type FakeClock } from '../../testing/fake-clock.js';
import type { ConnectParams, HelloOk } from '../connect.js';
import { GatewayError } from '../errors.js';
import type { RequestFrame } from '../frames.js';
import { backoffDelay, defaultBackoff } from './backoff.js';
import type { ConnectionStatus } from './connection-state.js';
import { GatewayClient, type GatewayClientOptions } from './gateway-client.js';
import { createLoopbackPair, type LoopbackPeer } from './loopback-transport.js';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function hello(overrides: Partial<HelloOk> = {}): HelloOk {
  return {
    type: 'hello-ok',
    protocol: 4,
    server: { version: 'test', connId: 'c1' },
    features: { methods: ['health'], events: ['tick'], capabilities: [] },
    snapshot: { presence: [], health: {}, stateVersion: { presence: 1, health: 1 }, uptimeMs: 1 },
    auth: { role: 'operator', scopes: ['operator.admin'], method: 'token' },
    policy: { maxPayload: 1000, maxBufferedBytes: 1000, tickIntervalMs: 30_000 },
    ...overrides,
  };
}

/** A scripted gateway: every open gets a challenge; `connect` is answered by `answerConnect`. */
function scriptedGateway(answerConnect: (peer: LoopbackPeer, frame: RequestFrame) => void = okConnect) {
  const peers: LoopbackPeer[] = [];
  let refuseNext: string | undefined;
  const factory = () => {
    const { transport, peer } = createLoopbackPair({
      refuse: refuseNext,
      onOpen: (p) =>
        p.send({
          type: 'event',
          event: 'connect.challenge',
          payload: { nonce: `n${peers.length - 1}`, ts: 5, capabilities: [] },
        }),
    });
    refuseNext = undefined;
    peer.onFrame((frame) => {
      if (frame.method === 'connect') answerConnect(peer, frame);
    });
    peers.push(peer);
    return transport;
  };
  return {
    peers,
    factory,
    refuseNextOpen(reason: string) {
      refuseNext = reason;
    },
    last: () => peers[peers.length - 1]!,
    requests: (method: string) => peers.flatMap((p) => p.received.filter((f) => f.method === method)),
  };
}

function okConnect(peer: LoopbackPeer, frame: RequestFrame) {
  peer.send({ type: 'res', id: frame.id, ok: true, payload: hello() });
}

const connectParams = (challenge: { nonce: string }): ConnectParams => ({
  minProtocol: 4,
  maxProtocol: 4,
  client: { id: 'test', version: '1', platform: 'test', mode: 'test' },
  auth: { token: `tok-${challenge.nonce}` },
});

let client: GatewayClient | undefined;
afterEach(() => client?.dispose());

function makeClient(
  gateway: ReturnType<typeof scriptedGateway>,
  clock: FakeClock,
  extra: Partial<GatewayClientOptions> = {},
) {
  let id = 0;
  client = new GatewayClient({
    transport: gateway.factory,
    connectParams,
    clock,
    random: () => 0.5,
    newId: () => `id-${++id}`,
    ...extra,
  });
  const statuses: ConnectionStatus[] = [];
  client.onDidChangeState((state) => statuses.push(state.status));
  return { client, statuses };
}

describe('GatewayClient handshake', () => {
  it('waits for the challenge, sends connect built from it, and becomes connected', async () => {
    const gateway = scriptedGateway();
    const { client, statuses } = makeClient(gateway, createFakeClock());
    client.start();
    const helloOk = await client.waitForConnected();
    expect(helloOk.server.connId).toBe('c1');
    const connect = gateway.requests('connect')[0]!;
    expect(connect.params).toMatchObject({ auth: { token: 'tok-n0' }, client: { id: 'test' } });
    expect(statuses).toEqual(['connecting', 'connected']);
  });

  it('stops with auth-failed and the reason when the token is refused, and does not retry', async () => {
    const gateway = scriptedGateway((peer, frame) => {
      peer.send({
        type: 'res',
        id: frame.id,
        ok: false,
        error: {
          code: 'INVALID_REQUEST',
          message: 'unauthorized: gateway token mismatch',
          details: { code: 'AUTH_TOKEN_MISMATCH' },
        },
      });
      peer.close(1008, 'unauthorized');
    });
    const clock = createFakeClock();
    const { client, statuses } = makeClient(gateway, clock);
    client.start();
    await expect(client.waitForConnected()).rejects.toThrow(/token mismatch/);
    expect(client.state.status).toBe('auth-failed');
    expect(client.state.lastError).toMatchObject({ detailCode: 'AUTH_TOKEN_MISMATCH' });
    clock.advance(120_000);
    await flush();
    expect(gateway.peers).toHaveLength(1);
    expect(statuses.at(-1)).toBe('auth-failed');
    await expect(client.call('health', {})).rejects.toThrow(/cannot call health: unauthorized/);
  });

  it('reports a connect-params builder that throws, naming the cause', async () => {
    const gateway = scriptedGateway();
    const clock = createFakeClock();
    makeClient(gateway, clock, {
      connectParams: () => {
        throw new Error('no device key');
      },
    });
    client!.start();
    await flush();
    expect(client!.state.lastError?.message).toBe('could not build connect params: no device key');
    expect(client!.state.status).toBe('reconnecting');
  });

  it('gives up the handshake when no hello comes in time', async () => {
    const gateway = scriptedGateway(() => {});
    const clock = createFakeClock();
    const { client } = makeClient(gateway, clock, { handshakeTimeoutMs: 1000 });
    client.start();
    await flush();
    clock.advance(1000);
    expect(client.state.status).toBe('reconnecting');
    expect(client.state.lastError?.message).toMatch(/no hello within 1000 ms/);
  });
});

describe('GatewayClient requests', () => {
  it('matches responses to requests by id, even out of order', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock());
    client.start();
    await client.waitForConnected();
    const first = client.request('health', {});
    const second = client.request('status', {});
    const [a, b] = gateway.last().received.slice(1);
    gateway.last().send({ type: 'res', id: b!.id, ok: true, payload: { runtimeVersion: 'x' } });
    gateway.last().send({ type: 'res', id: a!.id, ok: true, payload: { ok: true } });
    expect(await first).toEqual({ ok: true });
    expect(await second).toEqual({ runtimeVersion: 'x' });
  });

  it('queues calls made before the hello and sends them once connected', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock());
    client.start();
    const pending = client.request('health', {});
    expect(gateway.requests('health')).toHaveLength(0);
    await client.waitForConnected();
    const sent = gateway.requests('health')[0]!;
    gateway.last().send({ type: 'res', id: sent.id, ok: true, payload: { ok: true } });
    await expect(pending).resolves.toEqual({ ok: true });
  });

  it('turns an error response into a GatewayError with code and details', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock());
    client.start();
    await client.waitForConnected();
    const call = client.call('config.set', { raw: '{' });
    const sent = gateway.requests('config.set')[0]!;
    gateway.last().send({
      type: 'res',
      id: sent.id,
      ok: false,
      error: { code: 'FORBIDDEN', message: 'missing scope: operator.admin', details: { code: 'MISSING_SCOPE' } },
    });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'missing scope: operator.admin',
      details: { code: 'MISSING_SCOPE' },
    });
  });

  it('fails a request that gets no answer in time, as retryable UNAVAILABLE naming the method', async () => {
    const gateway = scriptedGateway();
    const clock = createFakeClock();
    const { client } = makeClient(gateway, clock, { requestTimeoutMs: 5000 });
    client.start();
    await client.waitForConnected();
    const call = client.request('health', {});
    clock.advance(5000);
    await expect(call).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'health timed out after 5000 ms' });
  });

  it('adds an idempotency key to side-effect methods and keeps one the caller gave', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock(), { isIdempotent: (m) => m === 'chat.send' });
    client.start();
    await client.waitForConnected();
    client.call('chat.send', { sessionKey: 'main', message: 'hi' }).catch(() => {});
    client.call('chat.send', { sessionKey: 'main', message: 'again', idempotencyKey: 'mine' }).catch(() => {});
    client.call('chat.history', { sessionKey: 'main' }).catch(() => {});
    const sends = gateway.requests('chat.send');
    expect((sends[0]!.params as { idempotencyKey: string }).idempotencyKey).toMatch(/^id-/);
    expect((sends[1]!.params as { idempotencyKey: string }).idempotencyKey).toBe('mine');
    expect(gateway.requests('chat.history')[0]!.params).toEqual({ sessionKey: 'main' });
  });

  it('knows from the method table which methods take an idempotency key', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock());
    client.start();
    await client.waitForConnected();
    client.request('chat.send', { sessionKey: 'main', message: 'hi' }).catch(() => {});
    client.request('chat.history', { sessionKey: 'main' }).catch(() => {});
    expect(gateway.requests('chat.send')[0]!.params).toMatchObject({ idempotencyKey: expect.stringMatching(/^id-/) });
    expect(gateway.requests('chat.history')[0]!.params).toEqual({ sessionKey: 'main' });
  });

  it('waits past the accepted answer of a two-phase method for the outcome', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock());
    client.start();
    await client.waitForConnected();
    const accepted: unknown[] = [];
    const call = client.call('agent', { message: 'x' }, { expectFinal: true, onAccepted: (p) => accepted.push(p) });
    const sent = gateway.requests('agent')[0]!;
    gateway.last().send({ type: 'res', id: sent.id, ok: true, payload: { runId: 'r', status: 'accepted' } });
    gateway.last().send({ type: 'res', id: sent.id, ok: true, payload: { runId: 'r', status: 'ok' } });
    await expect(call).resolves.toEqual({ runId: 'r', status: 'ok' });
    expect(accepted).toEqual([{ runId: 'r', status: 'accepted' }]);
  });

  it('refuses calls on a client that was never started, saying so', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock());
    await expect(client.request('health', {})).rejects.toThrow('cannot call health: the client is not started');
  });
});

describe('GatewayClient events and reconnect', () => {
  it('delivers events by name', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock());
    const seen: unknown[] = [];
    client.on('config.changed', (payload) => seen.push(payload));
    client.start();
    await client.waitForConnected();
    gateway
      .last()
      .send({ type: 'event', event: 'config.changed', payload: { hash: 'h', changedPrefixes: [] }, seq: 1 });
    gateway.last().send({ type: 'event', event: 'tick', payload: { ts: 1 }, seq: 2 });
    expect(seen).toEqual([{ hash: 'h', changedPrefixes: [] }]);
  });

  it('reconnects with backoff after a drop, fails in-flight calls, and resubscribes', async () => {
    const gateway = scriptedGateway();
    const clock = createFakeClock();
    const { client, statuses } = makeClient(gateway, clock);
    const connects: boolean[] = [];
    client.onDidConnect(({ reconnected }) => connects.push(reconnected));
    client.start();
    await client.waitForConnected();
    const kept = client.keepSubscribed('sessions.subscribe', { all: true });
    onTestFinished(() => kept.dispose());
    const inflight = client.request('health', {});
    gateway.last().close(1012, 'gateway stopping');
    await expect(inflight).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'connection lost during health' });
    expect(client.state).toMatchObject({
      status: 'reconnecting',
      attempt: 1,
      lastError: { message: 'gateway stopping' },
    });
    // attempt 0 with random 0.5 → 500 ms × (0.5 + 0.25) = 375 ms
    expect(client.state.nextRetryAt).toBe(clock.now() + 375);
    clock.advance(374);
    expect(gateway.peers).toHaveLength(1);
    clock.advance(1);
    await client.waitForConnected();
    expect(gateway.peers).toHaveLength(2);
    expect(connects).toEqual([false, true]);
    expect(gateway.peers[1]!.received.filter((f) => f.method === 'sessions.subscribe')).toHaveLength(1);
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
  });

  it('keeps retrying with growing delays while the gateway is unreachable', async () => {
    const gateway = scriptedGateway();
    const clock = createFakeClock();
    const { client } = makeClient(gateway, clock);
    gateway.refuseNextOpen('ECONNREFUSED');
    client.start();
    await flush();
    expect(client.state).toMatchObject({ status: 'reconnecting', attempt: 1, lastError: { message: 'ECONNREFUSED' } });
    gateway.refuseNextOpen('ECONNREFUSED');
    clock.advance(375);
    await flush();
    expect(client.state.attempt).toBe(2);
    expect(client.state.nextRetryAt).toBe(clock.now() + 750);
    clock.advance(750);
    await client.waitForConnected();
    expect(client.state.attempt).toBe(0);
  });

  it('closes a connection that went silent for two tick intervals and reconnects', async () => {
    const gateway = scriptedGateway();
    const clock = createFakeClock();
    const { client } = makeClient(gateway, clock);
    client.start();
    await client.waitForConnected();
    clock.advance(30_000);
    expect(client.state.status).toBe('connected');
    clock.advance(61_000);
    expect(gateway.peers[0]!.closeInfo).toEqual({ code: 4000, reason: 'tick timeout' });
    expect(client.state.status).toBe('reconnecting');
  });

  it('ends in disconnected when reconnect is off (one-shot CLI use)', async () => {
    const gateway = scriptedGateway();
    const { client } = makeClient(gateway, createFakeClock(), { reconnect: false });
    client.start();
    await client.waitForConnected();
    gateway.last().close(1000, 'bye');
    expect(client.state.status).toBe('disconnected');
  });
});

describe('backoffDelay', () => {
  it('grows by the factor, stays under the cap, and jitters within bounds', () => {
    const at = (attempt: number, r: number) => backoffDelay(defaultBackoff, attempt, () => r);
    expect(at(0, 0.999)).toBeLessThanOrEqual(500);
    expect(at(0, 0)).toBe(250);
    expect(at(3, 0.999)).toBeLessThanOrEqual(4000);
    expect(at(20, 0.999)).toBeLessThanOrEqual(30_000);
    expect(at(20, 0)).toBe(15_000);
  });
});
