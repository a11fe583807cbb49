import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { createHearthPaths, type HearthPaths } from '../paths/index.js';
import { createFakeClock, type FakeClock } from '../testing/fake-clock.js';
import type { AgentMessage } from '../transcript/index.js';
import { createSessionStore, DEFERRED_INDEX_WRITE_MS } from './session-store.js';
import { type SessionStore, SessionStoreError } from './session-store-api.js';

let home: string;
let paths: HearthPaths;
let clock: FakeClock;
let log: ReturnType<typeof createMemoryLogger>;
let store: SessionStore;

const open = () => createSessionStore({ paths, clock, log });
const user = (n: number, text = `message ${n}`): AgentMessage => ({ kind: 'user', id: `u${n}`, ts: n, text });
const assistant = (n: number): AgentMessage => ({ kind: 'assistant', id: `a${n}`, ts: n, text: `answer ${n}` });

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-sessions-'));
  paths = createHearthPaths(home);
  clock = createFakeClock();
  log = createMemoryLogger();
  store = open();
});

afterEach(async () => {
  await store.flush();
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('session store', () => {
  it('creates a session on first resolve and returns the same one after', async () => {
    const first = await store.resolve('main', 'main');
    expect(first).toMatchObject({ key: 'agent:main:main', agentId: 'main', createdAt: clock.now() });
    clock.advance(1000);
    const again = await store.resolve('main', 'agent:main:main');
    expect(again.sessionId).toBe(first.sessionId);
    const files = await readdir(paths.sessionsDir('main'));
    expect(files.sort()).toEqual([`${first.sessionId}.jsonl`, 'sessions.json'].sort());
  });

  it('creates only one session when the same key is resolved concurrently', async () => {
    const records = await Promise.all(Array.from({ length: 10 }, () => store.resolve('main', 'main')));
    expect(new Set(records.map((r) => r.sessionId)).size).toBe(1);
  });

  it('appends, syncs and reads back after a restart, with a title from the first user message', async () => {
    const session = await store.resolve('main', 'main');
    await store.append('main', session.sessionId, [user(1, '  Plan my   trip to Lisbon '), assistant(1)]);
    clock.advance(5000);
    await store.append('main', session.sessionId, [user(2)]);
    await store.sync('main', session.sessionId);

    const reopened = open();
    const read = await reopened.read('main', session.sessionId);
    expect(read.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2']);
    expect(read.hasMore).toBe(false);
    expect(await reopened.get('main', 'main')).toMatchObject({
      title: 'Plan my trip to Lisbon',
      updatedAt: clock.now(),
      messageCount: 3,
    });
  });

  it('keeps appends from concurrent callers whole and in call order', async () => {
    const session = await store.resolve('main', 'main');
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.append('main', session.sessionId, [user(i)])));
    const text = await readFile(join(paths.sessionsDir('main'), `${session.sessionId}.jsonl`), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(51);
    expect(lines.slice(1).map((line) => JSON.parse(line).id)).toEqual(Array.from({ length: 50 }, (_, i) => `u${i}`));
  });

  it('pages from the newest messages towards the oldest with a cursor', async () => {
    const session = await store.resolve('main', 'main');
    await store.append(
      'main',
      session.sessionId,
      Array.from({ length: 25 }, (_, i) => user(i)),
    );
    const page1 = await store.read('main', session.sessionId, { limit: 10 });
    expect(page1.messages.map((m) => m.id)).toEqual(Array.from({ length: 10 }, (_, i) => `u${i + 15}`));
    expect(page1).toMatchObject({ hasMore: true, nextCursor: '15' });
    const page2 = await store.read('main', session.sessionId, { limit: 10, before: page1.nextCursor });
    expect(page2.messages[0]!.id).toBe('u5');
    const page3 = await store.read('main', session.sessionId, { limit: 10, before: page2.nextCursor });
    expect(page3.messages.map((m) => m.id)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4']);
    expect(page3.hasMore).toBe(false);
    expect(page3.nextCursor).toBeUndefined();
  });

  it('rejects bad read arguments and unknown sessions with clear errors', async () => {
    const session = await store.resolve('main', 'main');
    await expect(store.read('main', session.sessionId, { limit: 0 })).rejects.toThrow(
      /limit must be an integer from 1 to 10000/,
    );
    await expect(store.read('main', session.sessionId, { before: 'abc' })).rejects.toThrow(/invalid cursor "abc"/);
    await expect(store.read('main', session.sessionId, { before: '99' })).rejects.toThrow(/invalid cursor "99"/);
    await expect(store.read('main', 'no-such-session')).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.append('main', 'no-such-session', [user(1)])).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.read('main', '../../etc/passwd')).rejects.toThrow(/invalid session id/);
    await expect(store.resolve('main', 'agent:dev:main')).rejects.toThrow(/belongs to agent "dev", not "main"/);
    await expect(store.resolve('main', 'agent:main:telegram:pal:1')).rejects.toThrow(SessionStoreError);
    await expect(store.resolve('Not Valid', 'main')).rejects.toThrow(/invalid agent id/);
  });

  it('moves a torn last line aside and keeps the session readable and appendable', async () => {
    const session = await store.resolve('main', 'main');
    await store.append('main', session.sessionId, [user(1), assistant(1)]);
    await store.sync('main', session.sessionId);
    const file = join(paths.sessionsDir('main'), `${session.sessionId}.jsonl`);
    // What a crash halfway through an append leaves behind.
    await appendFile(file, '{"kind":"user","id":"u2","ts":2,"te');

    const reopened = open();
    const read = await reopened.read('main', session.sessionId);
    expect(read.messages.map((m) => m.id)).toEqual(['u1', 'a1']);
    const aside = (await readdir(paths.sessionsDir('main'))).filter((name) => name.includes('.torn-'));
    expect(aside).toEqual([`${session.sessionId}.jsonl.torn-${clock.now()}`]);
    expect(await readFile(join(paths.sessionsDir('main'), aside[0]!), 'utf8')).toBe(
      '{"kind":"user","id":"u2","ts":2,"te',
    );
    expect(log.entries.some((e) => e.level === 'warn' && e.message.includes('torn'))).toBe(true);

    await reopened.append('main', session.sessionId, [user(3)]);
    const after = await open().read('main', session.sessionId);
    expect(after.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u3']);
  });

  it('repairs a torn tail before the first append after a restart', async () => {
    const session = await store.resolve('main', 'main');
    const file = join(paths.sessionsDir('main'), `${session.sessionId}.jsonl`);
    await appendFile(file, '{"kind":"assis');
    await open().append('main', session.sessionId, [user(7)]);
    expect((await open().read('main', session.sessionId)).messages.map((m) => m.id)).toEqual(['u7']);
  });

  it('keeps a corrupt sessions.json aside and rebuilds the index from the transcripts', async () => {
    const a = await store.resolve('main', 'main');
    await store.append('main', a.sessionId, [user(1)]);
    clock.advance(10);
    await store.resolve('main', 'agent:main:telegram:direct:42');
    clock.advance(10);
    const reset = await store.reset('main', 'main');
    await store.sync('main', reset.sessionId);

    const indexFile = join(paths.sessionsDir('main'), 'sessions.json');
    await writeFile(indexFile, '{"version":1,"sessions":{"agent:main:main":{"sessio');
    const reopened = open();
    const listed = await reopened.list({ agentId: 'main' });
    expect(listed.sessions.map((s) => s.key).sort()).toEqual(['agent:main:main', 'agent:main:telegram:direct:42']);
    // After a reset the newest transcript is the one the key points to; the old one is still on disk.
    expect((await reopened.get('main', 'main'))!.sessionId).toBe(reset.sessionId);
    expect((await reopened.read('main', a.sessionId)).messages).toHaveLength(1);

    const names = await readdir(paths.sessionsDir('main'));
    const kept = names.filter((name) => name.startsWith('sessions.json.corrupt-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(paths.sessionsDir('main'), kept[0]!), 'utf8')).toContain('"sessio');
    expect(JSON.parse(await readFile(indexFile, 'utf8')).sessions['agent:main:main'].sessionId).toBe(reset.sessionId);
    const warning = log.entries.find((e) => e.message.includes('rebuilt the index'));
    expect(warning).toMatchObject({ level: 'warn', fields: { agentId: 'main', rebuiltSessions: 2 } });
  });

  it('treats a sessions.json of the wrong shape as corrupt too', async () => {
    await store.resolve('main', 'main');
    await writeFile(join(paths.sessionsDir('main'), 'sessions.json'), '{"version":1,"sessions":{"main":{"id":3}}}');
    const listed = await open().list();
    expect(listed.sessions.map((s) => s.key)).toEqual(['agent:main:main']);
    expect(log.entries.find((e) => e.message.includes('rebuilt'))!.fields!.problem).toMatch(/sessionId/);
  });

  it('reset starts a new transcript and keeps the old one', async () => {
    const before = await store.resolve('main', 'main');
    await store.append('main', before.sessionId, [user(1)]);
    const after = await store.reset('main', 'main');
    expect(after.sessionId).not.toBe(before.sessionId);
    expect((await store.read('main', after.sessionId)).messages).toEqual([]);
    expect((await store.read('main', before.sessionId)).messages).toHaveLength(1);
    expect((await store.resolve('main', 'main')).sessionId).toBe(after.sessionId);
  });

  it('delete forgets the key but renames the transcript instead of removing it', async () => {
    const session = await store.resolve('main', 'main');
    await store.append('main', session.sessionId, [user(1)]);
    expect(await store.delete('main', 'main')).toBe(true);
    expect(await store.delete('main', 'main')).toBe(false);
    expect(await store.get('main', 'main')).toBeUndefined();
    const names = await readdir(paths.sessionsDir('main'));
    expect(names).toContain(`${session.sessionId}.jsonl.deleted-${clock.now()}`);
    // A rebuilt index does not bring it back.
    await writeFile(join(paths.sessionsDir('main'), 'sessions.json'), 'garbage');
    expect((await open().list()).totalCount).toBe(0);
  });

  it('lists across agents, newest first, with paging and search', async () => {
    const keys = ['main', 'agent:main:telegram:direct:alice', 'agent:main:telegram:direct:bob'];
    for (const key of keys) {
      clock.advance(100);
      await store.resolve('main', key);
    }
    clock.advance(100);
    const dev = await store.resolve('dev', 'agent:dev:discord:group:g1');
    await store.append('dev', dev.sessionId, [user(1, 'Refactor the parser')]);
    await store.sync('dev', dev.sessionId);

    const page1 = await store.list({ limit: 3 });
    expect(page1).toMatchObject({ count: 3, totalCount: 4, hasMore: true, nextOffset: 3 });
    expect(page1.sessions.map((s) => s.key)).toEqual([
      'agent:dev:discord:group:g1',
      'agent:main:telegram:direct:bob',
      'agent:main:telegram:direct:alice',
    ]);
    const page2 = await store.list({ limit: 3, offset: 3 });
    expect(page2).toMatchObject({ count: 1, hasMore: false, nextOffset: null });

    expect((await open().list({ search: 'ALICE' })).sessions.map((s) => s.key)).toEqual([
      'agent:main:telegram:direct:alice',
    ]);
    expect((await open().list({ search: 'parser' })).sessions.map((s) => s.agentId)).toEqual(['dev']);
    expect((await store.list({ agentId: 'main' })).totalCount).toBe(3);
    await expect(store.list({ offset: -1 })).rejects.toThrow(/offset must be a non-negative integer/);
    await expect(store.list({ limit: 5000 })).rejects.toThrow(/limit must be an integer from 1 to 1000/);
  });

  it('patches title and model, and clears them with null', async () => {
    await store.resolve('main', 'main');
    expect(await store.patch('main', 'main', { title: 'Trip', model: 'openai/gpt-4o' })).toMatchObject({
      title: 'Trip',
      model: 'openai/gpt-4o',
    });
    const cleared = await store.patch('main', 'main', { title: null });
    expect(cleared.title).toBeUndefined();
    expect((await open().get('main', 'main'))!.model).toBe('openai/gpt-4o');
    await expect(store.patch('main', 'agent:main:cron:x', { title: 'x' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('tells listeners about every change once it is on disk', async () => {
    const changes: unknown[] = [];
    const listening = store.onDidChange((change) => changes.push(change));
    onTestFinished(() => listening.dispose());
    const first = await store.resolve('main', 'main');
    await store.resolve('main', 'main');
    await store.append('main', first.sessionId, [user(1)]);
    await store.sync('main', first.sessionId);
    await store.patch('main', 'main', { title: 'x' });
    const second = await store.reset('main', 'main');
    await store.sync('main', first.sessionId); // an old transcript is not the session any more
    await store.delete('main', 'main');
    const base = { agentId: 'main', key: 'agent:main:main' };
    expect(changes).toEqual([
      { ...base, reason: 'created', sessionId: first.sessionId },
      { ...base, reason: 'updated', sessionId: first.sessionId },
      { ...base, reason: 'patched', sessionId: first.sessionId },
      { ...base, reason: 'reset', sessionId: second.sessionId, previousSessionId: first.sessionId },
      { ...base, reason: 'deleted', previousSessionId: second.sessionId },
    ]);
  });

  it('commit announces at once and makes the turn durable in the background, which flush waits for', async () => {
    const changes: unknown[] = [];
    const listening = store.onDidChange((change) => changes.push(change));
    onTestFinished(() => listening.dispose());
    const session = await store.resolve('main', 'main');
    await store.append('main', session.sessionId, [user(1, 'Book a table for two')]);
    const userCommitted = store.commit('main', session.sessionId);
    clock.advance(1000);
    await store.append('main', session.sessionId, [assistant(1)]);
    // Overlapping commits of one transcript: each announces, their fsyncs are shared.
    await Promise.all([userCommitted, store.commit('main', session.sessionId)]);
    const updated = { agentId: 'main', key: 'agent:main:main', reason: 'updated', sessionId: session.sessionId };
    expect(changes.slice(-2)).toEqual([updated, updated]);
    // Written before commit resolves: a reader (or the next start after a kill) sees both messages.
    const onDisk = (await readFile(join(paths.sessionsDir('main'), `${session.sessionId}.jsonl`), 'utf8')).trim();
    expect(
      onDisk
        .split('\n')
        .slice(1)
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual(['u1', 'a1']);
    await store.flush();
    const reopened = await open().get('main', 'main');
    expect(reopened).toMatchObject({ title: 'Book a table for two', messageCount: 2, updatedAt: clock.now() });
    // A commit of a transcript that is not a session's (any more) announces nothing and fails nothing.
    await store.reset('main', 'main');
    await store.commit('main', session.sessionId);
    await store.flush();
    expect(changes.filter((change) => (change as { reason: string }).reason === 'updated')).toHaveLength(2);
    expect(log.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it("leaves a mid-turn commit's index write to the turn's reply commit: sessions.json written once a turn", async () => {
    const session = await store.resolve('main', 'main');
    const pending = clock.pendingTimers;
    await store.append('main', session.sessionId, [user(1, 'Plan the trip')]);
    await store.commit('main', session.sessionId, { turnContinues: true });
    // The user message is in the transcript at once; only the index waits (for the reply or a timeout).
    expect(clock.pendingTimers).toBe(pending + 1);
    const onDisk = await readFile(join(paths.sessionsDir('main'), `${session.sessionId}.jsonl`), 'utf8');
    expect(onDisk).toContain('Plan the trip');
    clock.advance(10);
    await store.append('main', session.sessionId, [assistant(1)]);
    await store.commit('main', session.sessionId);
    expect(clock.pendingTimers).toBe(pending);
    await store.flush();
    expect(await open().get('main', 'main')).toMatchObject({
      title: 'Plan the trip',
      messageCount: 2,
      updatedAt: clock.now(),
    });
  });

  it('writes a deferred index change when the turn does not commit again in time, and at flush', async () => {
    const indexOnDisk = async () =>
      (
        JSON.parse(await readFile(join(paths.sessionsDir('main'), 'sessions.json'), 'utf8')) as {
          sessions: Record<string, { messageCount?: number }>;
        }
      ).sessions['agent:main:main']?.messageCount;
    const session = await store.resolve('main', 'main');
    await store.append('main', session.sessionId, [user(1)]);
    await store.commit('main', session.sessionId, { turnContinues: true });
    clock.advance(DEFERRED_INDEX_WRITE_MS);
    await expect.poll(indexOnDisk).toBe(1);
    // A turn that never commits again (it crashed) loses nothing at shutdown either.
    await store.append('main', session.sessionId, [user(2)]);
    await store.commit('main', session.sessionId, { turnContinues: true });
    await store.flush();
    expect(await indexOnDisk()).toBe(2);
    expect(clock.pendingTimers).toBe(0);
  });

  it('writes the index and transcripts readable by the owner only', async () => {
    const session = await store.resolve('main', 'main');
    const { stat } = await import('node:fs/promises');
    expect((await stat(join(paths.sessionsDir('main'), `${session.sessionId}.jsonl`))).mode & 0o777).toBe(0o600);
    expect((await stat(join(paths.sessionsDir('main'), 'sessions.json'))).mode & 0o777).toBe(0o600);
  });
});
