import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DisposableStore } from '../../base/disposable.js';
import { silentLogger } from '../../base/index.js';
import { createHearthPaths } from '../../paths/index.js';
import { createSessionStore, type SessionStore } from '../../sessions/index.js';
import { createFakeClock, type FakeClock } from '../../testing/fake-clock.js';
import { testCaller } from '../../testing/test-caller.js';
import type { CallerIdentity } from '../caller.js';
import { GatewayEventBus, type PublishedEvent } from '../event-bus.js';
import { type CallContext, MethodRegistry } from '../method-router.js';
import { registerSessionsMethods } from './sessions.js';

const caller = (scopes: string[]): CallerIdentity => testCaller(scopes);

let home: string;
let clock: FakeClock;
let store: SessionStore;
let registry: MethodRegistry;
let events: PublishedEvent[];

const call = (method: string, params: unknown, scopes = ['operator.write']) => {
  const context: CallContext = {
    caller: caller(scopes),
    requestId: 'r1',
    signal: new AbortController().signal,
    acknowledge() {},
  };
  return registry.dispatch(method, params, context);
};

/** What a test's setup registers (the bus subscription, the methods), released after it. */
let lifetimes: DisposableStore;
beforeEach(async () => {
  lifetimes = new DisposableStore();
  home = await mkdtemp(join(tmpdir(), 'hearth-sessions-methods-'));
  clock = createFakeClock();
  store = createSessionStore({ paths: createHearthPaths(home), clock, log: silentLogger });
  registry = new MethodRegistry();
  const bus = new GatewayEventBus();
  events = [];
  lifetimes.add(bus.onDidPublish((event) => events.push(event)));
  lifetimes.add(registerSessionsMethods(registry, { store, bus, clock }));
});

afterEach(async () => {
  lifetimes.dispose();
  await store.flush();
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('sessions methods', () => {
  it('lists sessions in the OpenClaw shape, with paging and search', async () => {
    await store.resolve('main', 'main');
    clock.advance(1000);
    const dm = await store.resolve('main', 'agent:main:telegram:direct:alice');
    await store.append('main', dm.sessionId, [{ kind: 'user', id: 'u1', ts: 1, text: 'Book the dentist' }]);
    clock.advance(1000);
    await store.resolve('dev', 'agent:dev:discord:group:g1');

    const page = await call('sessions.list', { limit: 2 }, ['operator.read']);
    expect(page).toMatchObject({ ok: true, payload: { count: 2, totalCount: 3, nextOffset: 2, hasMore: true } });
    const rows = (page as { payload: { sessions: Record<string, unknown>[] } }).payload.sessions;
    expect(rows[0]).toMatchObject({
      key: 'agent:dev:discord:group:g1',
      kind: 'group',
      agentId: 'dev',
      channel: 'discord',
    });
    expect(rows[1]).toMatchObject({
      key: 'agent:main:telegram:direct:alice',
      kind: 'direct',
      displayName: 'Book the dentist',
      messageCount: 1,
    });

    const found = await call('sessions.list', { search: 'dentist' });
    expect(found).toMatchObject({ ok: true, payload: { totalCount: 1 } });
    const recent = await call('sessions.list', { activeMinutes: 1 });
    expect(recent).toMatchObject({ ok: true, payload: { totalCount: 3 } });
    clock.advance(10 * 60_000);
    expect(await call('sessions.list', { activeMinutes: 5 })).toMatchObject({ ok: true, payload: { totalCount: 0 } });
  });

  it('gets one session by key or sessionKey, "main" included', async () => {
    const main = await store.resolve('main', 'main');
    expect(await call('sessions.get', { key: 'main' })).toMatchObject({
      ok: true,
      payload: { session: { key: 'agent:main:main', sessionId: main.sessionId, kind: 'direct' } },
    });
    expect(await call('sessions.get', { sessionKey: 'agent:main:main' })).toMatchObject({ ok: true });
    expect(await call('sessions.get', { key: 'agent:main:telegram:direct:nobody' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'no session agent:main:telegram:direct:nobody' },
    });
  });

  it('resets a session: new id, old transcript still readable, event published', async () => {
    const before = await store.resolve('main', 'main');
    await store.append('main', before.sessionId, [{ kind: 'user', id: 'u1', ts: 1, text: 'hi' }]);
    const result = await call('sessions.reset', { key: 'main', idempotencyKey: 'k1' });
    expect(result).toMatchObject({
      ok: true,
      payload: { ok: true, key: 'agent:main:main', previousSessionId: before.sessionId },
    });
    const after = (await store.get('main', 'main'))!;
    expect(after.sessionId).not.toBe(before.sessionId);
    expect((await store.read('main', before.sessionId)).messages).toHaveLength(1);
    expect(events.map((e) => [e.event, e.payload])).toEqual([
      ['sessions.changed', { reason: 'created', agentId: 'main', key: 'agent:main:main', sessionId: before.sessionId }],
      [
        'sessions.changed',
        {
          reason: 'reset',
          agentId: 'main',
          key: 'agent:main:main',
          sessionId: after.sessionId,
          previousSessionId: before.sessionId,
        },
      ],
    ]);
  });

  it('deletes a session and says whether there was one', async () => {
    await store.resolve('main', 'agent:main:telegram:direct:bob');
    expect(await call('sessions.delete', { sessionKey: 'agent:main:telegram:direct:bob' })).toMatchObject({
      ok: true,
      payload: { ok: true, deleted: true },
    });
    expect(await call('sessions.delete', { key: 'agent:main:telegram:direct:bob' })).toMatchObject({
      ok: true,
      payload: { deleted: false },
    });
    expect(events.map((e) => (e.payload as { reason: string }).reason)).toEqual(['created', 'deleted']);
  });

  it('announces turn-end updates as droppable, and stops forwarding when disposed', async () => {
    const other = new MethodRegistry();
    const bus = new GatewayEventBus();
    const seen: PublishedEvent[] = [];
    lifetimes.add(bus.onDidPublish((event) => seen.push(event)));
    const registration = lifetimes.add(registerSessionsMethods(other, { store, bus }));
    const session = await store.resolve('main', 'main');
    await store.append('main', session.sessionId, [{ kind: 'user', id: 'u1', ts: 1, text: 'hi' }]);
    await store.sync('main', session.sessionId);
    expect(seen.map((e) => [(e.payload as { reason: string }).reason, e.options.droppable])).toEqual([
      ['created', false],
      ['updated', true],
    ]);
    registration.dispose();
    await store.reset('main', 'main');
    expect(seen).toHaveLength(2);
  });

  it('needs the sessions.write scope for reset and delete, read for list and get', async () => {
    expect(await call('sessions.reset', { key: 'main' }, ['operator.read'])).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { missingScope: 'operator.sessions.write' } },
    });
    expect(await call('sessions.delete', { key: 'main' }, ['operator.sessions.read'])).toMatchObject({ ok: false });
    expect(await call('sessions.list', {}, ['operator.sessions.read'])).toMatchObject({ ok: true });
    expect(await call('sessions.list', {}, ['operator.approvals'])).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
  });

  it.each([
    ['sessions.get', {}, /exactly one/],
    ['sessions.get', { key: 'main', sessionKey: 'main' }, /exactly one/],
    ['sessions.get', { key: 'agent:main:telegram:pal:1' }, /unknown peer kind "pal"/],
    ['sessions.reset', { key: 'not-a-key' }, /malformed session key "not-a-key"/],
    ['sessions.list', { limit: 0 }, /invalid sessions.list params/],
    ['sessions.list', { bogus: true, limit: 'ten' }, /at \/limit/],
    ['sessions.delete', { key: 'agent:BAD:main' }, /invalid agent id "BAD"/],
  ])('%s rejects %j with a clear INVALID_REQUEST', async (method, params, message) => {
    const result = await call(method, params);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect((result as { error: { message: string } }).error.message).toMatch(message);
  });

  it("accepts OpenClaw's sessions.list params: unknown filters ignored, a limit above 1000 clamped", async () => {
    const result = await call('sessions.list', {
      includeGlobal: true,
      includeUnknown: true,
      configuredAgentsOnly: true,
      limit: 10_000,
      spawnedBy: 'agent:main:main',
    });
    expect(result).toMatchObject({ ok: true, payload: { sessions: expect.any(Array) } });
  });

  it('unregisters its handlers when disposed', () => {
    const other = new MethodRegistry();
    const registration = registerSessionsMethods(other, { store });
    expect(other.implementedMethods()).toEqual([
      'sessions.archive',
      'sessions.create',
      'sessions.delete',
      'sessions.fork',
      'sessions.get',
      'sessions.list',
      'sessions.pin',
      'sessions.rename',
      'sessions.reset',
    ]);
    registration.dispose();
    expect(other.implementedMethods()).toEqual([]);
  });
});
