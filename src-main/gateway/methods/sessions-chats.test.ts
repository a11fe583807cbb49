import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DisposableStore } from '../../base/disposable.js';
import { silentLogger } from '../../base/index.js';
import { createHearthPaths, type HearthPaths } from '../../paths/index.js';
import { createSessionStore, type SessionStore } from '../../sessions/index.js';
import { createFakeClock, type FakeClock } from '../../testing/fake-clock.js';
import { testCaller } from '../../testing/test-caller.js';
import { GatewayEventBus, type PublishedEvent } from '../event-bus.js';
import { type CallContext, MethodRegistry } from '../method-router.js';
import { registerSessionsMethods } from './sessions.js';

// The chat list's methods: new chat, list, rename, pin, archive, delete (for good) and fork.

let home: string;
let paths: HearthPaths;
let clock: FakeClock;
let store: SessionStore;
let registry: MethodRegistry;
let events: PublishedEvent[];
let labels: number;

type Answer = {
  ok: boolean;
  payload?: Record<string, unknown> & { session?: Record<string, unknown> };
  error?: { code: string; message: string };
};

const call = async (method: string, params: unknown, scopes = ['operator.write']) => {
  const context: CallContext = {
    caller: testCaller(scopes),
    requestId: 'r1',
    signal: new AbortController().signal,
    acknowledge() {},
  };
  return (await registry.dispatch(method, params, context)) as Answer;
};
const keysOf = (answer: Answer) => ((answer.payload?.sessions ?? []) as { key: string }[]).map((row) => row.key);

/** What a test's setup registers (the bus subscription, the methods), released after it. */
let lifetimes: DisposableStore;
beforeEach(async () => {
  lifetimes = new DisposableStore();
  home = await mkdtemp(join(tmpdir(), 'hearth-session-chats-'));
  paths = createHearthPaths(home);
  clock = createFakeClock();
  store = createSessionStore({ paths, clock, log: silentLogger });
  registry = new MethodRegistry();
  const bus = new GatewayEventBus();
  events = [];
  labels = 0;
  lifetimes.add(bus.onDidPublish((event) => events.push(event)));
  lifetimes.add(registerSessionsMethods(registry, { store, bus, clock, newLabel: () => `chat-${++labels}` }));
});

afterEach(async () => {
  lifetimes.dispose();
  await store.flush();
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('chat list methods', () => {
  it('starts a fresh named chat per agent, with a readable name rather than the key', async () => {
    const first = await call('sessions.create', { agentId: 'main' });
    expect(first).toMatchObject({
      ok: true,
      payload: {
        key: 'agent:main:chat-1',
        session: { key: 'agent:main:chat-1', label: 'chat-1', displayName: 'chat-1' },
      },
    });
    const titled = await call('sessions.create', { agentId: 'dev', label: 'Work-Notes', title: 'Work notes' });
    expect(titled.payload).toMatchObject({
      key: 'agent:dev:work-notes',
      session: { agentId: 'dev', title: 'Work notes' },
    });
    expect(events.map((e) => (e.payload as { reason: string }).reason)).toContain('created');

    const main = await call('sessions.create', {});
    expect(main.payload?.key).toBe('agent:main:chat-2');
    await store.resolve('main', 'main');
    const list = await call('sessions.list', { agentId: 'main' });
    const row = ((list.payload?.sessions ?? []) as Record<string, unknown>[]).find((r) => r.key === 'agent:main:main');
    expect(row?.displayName).toBe('Main');
  });

  it('lists one agent, most recent first, pinned on top, archived left out unless asked, with the channel', async () => {
    await call('sessions.create', { label: 'old' });
    clock.advance(1000);
    await store.resolve('main', 'agent:main:telegram:direct:42');
    clock.advance(1000);
    await call('sessions.create', { label: 'new' });
    await call('sessions.create', { agentId: 'dev', label: 'elsewhere' });

    expect(keysOf(await call('sessions.list', { agentId: 'main' }))).toEqual([
      'agent:main:new',
      'agent:main:telegram:direct:42',
      'agent:main:old',
    ]);
    const tg = (await call('sessions.list', { agentId: 'main' })).payload?.sessions as Record<string, unknown>[];
    expect(tg[1]).toMatchObject({ channel: 'telegram', displayName: 'telegram · 42' });

    expect(await call('sessions.pin', { key: 'agent:main:old', pinned: true })).toMatchObject({
      ok: true,
      payload: { session: { pinned: true } },
    });
    expect(await call('sessions.archive', { sessionKey: 'agent:main:new', archived: true })).toMatchObject({
      payload: { session: { archived: true } },
    });
    expect(keysOf(await call('sessions.list', { agentId: 'main' }))).toEqual([
      'agent:main:old',
      'agent:main:telegram:direct:42',
    ]);
    expect(keysOf(await call('sessions.list', { agentId: 'main', archived: 'only' }))).toEqual(['agent:main:new']);
    expect(keysOf(await call('sessions.list', { agentId: 'main', archived: 'all' }))).toHaveLength(3);
  });

  it('renames a chat, and clears the title with null', async () => {
    await call('sessions.create', { label: 'trip' });
    expect(await call('sessions.rename', { key: 'agent:main:trip', title: '  Trip to Lisbon ' })).toMatchObject({
      payload: { session: { title: 'Trip to Lisbon', displayName: 'Trip to Lisbon' } },
    });
    expect((await call('sessions.rename', { key: 'agent:main:trip', title: null })).payload?.session).toMatchObject({
      displayName: 'trip',
    });
  });

  it('deletes for good when asked: transcript files and index entry gone', async () => {
    const created = await call('sessions.create', { label: 'scratch' });
    const sessionId = created.payload?.session?.sessionId as string;
    expect(await call('sessions.delete', { key: 'agent:main:scratch', deleteTranscript: true })).toMatchObject({
      ok: true,
      payload: { deleted: true, transcriptDeleted: true },
    });
    expect((await readdir(paths.sessionsDir('main'))).some((name) => name.startsWith(sessionId))).toBe(false);
    expect(await call('sessions.get', { key: 'agent:main:scratch' })).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('forks a chat from a message into a new named chat', async () => {
    const source = await store.resolve('main', 'main');
    await store.append('main', source.sessionId, [
      { kind: 'user', id: 'u1', ts: 1, text: 'Plan a trip' },
      { kind: 'assistant', id: 'a1', ts: 2, text: 'Where to?' },
      { kind: 'user', id: 'u2', ts: 3, text: 'Lisbon' },
    ]);
    const fork = await call('sessions.fork', { key: 'main', messageId: 'a1', title: 'Trip, other way' });
    expect(fork).toMatchObject({
      ok: true,
      payload: {
        key: 'agent:main:chat-1',
        session: { title: 'Trip, other way', messageCount: 2, forkedFrom: { key: 'agent:main:main', messageId: 'a1' } },
      },
    });
    const forked = await store.get('main', 'agent:main:chat-1');
    expect((await store.read('main', forked!.sessionId)).messages.map((m) => m.id)).toEqual(['u1', 'a1']);
    expect(events.map((e) => (e.payload as { reason: string }).reason)).toContain('forked');
  });

  it('needs sessions.write for every change, and read for the list', async () => {
    for (const [method, params] of [
      ['sessions.create', {}],
      ['sessions.rename', { key: 'main', title: 'x' }],
      ['sessions.pin', { key: 'main', pinned: true }],
      ['sessions.archive', { key: 'main', archived: true }],
      ['sessions.fork', { key: 'main', messageId: 'm' }],
    ] as const) {
      expect(await call(method, params, ['operator.read'])).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
    }
  });

  it.each([
    ['sessions.create', { label: '../../etc' }, /session label "..\/..\/etc" is not allowed/],
    ['sessions.create', { label: 'main' }, /reserved/],
    ['sessions.create', { agentId: 'Bad Agent' }, /invalid agent id/],
    ['sessions.rename', { key: 'main', title: '' }, /title is empty/],
    ['sessions.rename', { key: 'main', title: 'two\nlines' }, /one line/],
    ['sessions.rename', { key: 'agent:main:nobody', title: 'x' }, /no session agent:main:nobody/],
    ['sessions.pin', { key: 'main' }, /pinned/],
    ['sessions.archive', { key: 'agent:main:a/b', archived: true }, /not allowed/],
    ['sessions.fork', { key: 'main' }, /messageId/],
    ['sessions.fork', { key: 'agent:main:nobody', messageId: 'm1' }, /no session agent:main:nobody/],
  ])('%s refuses %j with a clear error', async (method, params, message) => {
    const answer = await call(method, params);
    expect(answer.ok).toBe(false);
    expect(answer.error?.message).toMatch(message);
  });

  it('refuses a second chat under a taken label', async () => {
    await call('sessions.create', { label: 'taken' });
    expect((await call('sessions.create', { label: 'taken' })).error?.message).toMatch(
      /agent:main:taken already exists/,
    );
  });
});
