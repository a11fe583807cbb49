import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { createHearthPaths, type HearthPaths } from '../paths/index.js';
import { createFakeClock, type FakeClock } from '../testing/fake-clock.js';
import type { AgentMessage } from '../transcript/index.js';
import { createSessionStore } from './session-store.js';
import type { SessionChange, SessionStore } from './session-store-api.js';

// Named chats in the store: many parallel conversations per agent, each pinnable, archivable,
// deletable for good, and forkable from any message.

let home: string;
let paths: HearthPaths;
let clock: FakeClock;
let store: SessionStore;

const open = () => createSessionStore({ paths, clock, log: createMemoryLogger() });
const user = (n: number): AgentMessage => ({ kind: 'user', id: `u${n}`, ts: n, text: `question ${n}` });
const assistant = (n: number): AgentMessage => ({ kind: 'assistant', id: `a${n}`, ts: n, text: `answer ${n}` });

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-named-sessions-'));
  paths = createHearthPaths(home);
  clock = createFakeClock();
  store = open();
});

afterEach(async () => {
  await store.flush();
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('named chats in the session store', () => {
  it('keeps agent:main:<label> sessions apart from main, each with its own transcript', async () => {
    const main = await store.resolve('main', 'main');
    const notes = await store.resolve('main', 'agent:main:work-notes');
    expect(notes).toMatchObject({ key: 'agent:main:work-notes', agentId: 'main' });
    expect(notes.sessionId).not.toBe(main.sessionId);
    await store.append('main', notes.sessionId, [user(1)]);
    expect((await store.read('main', main.sessionId)).messages).toEqual([]);
    expect((await store.read('main', notes.sessionId)).messages).toEqual([user(1)]);
    // The transcript is named by session id, never by the label.
    expect((await readdir(paths.sessionsDir('main'))).sort()).toEqual(
      [`${main.sessionId}.jsonl`, `${notes.sessionId}.jsonl`, 'sessions.json'].sort(),
    );
  });

  it('refuses a label that could escape, with the reason', async () => {
    await expect(store.resolve('main', 'agent:main:..%2F..%2Fetc')).rejects.toThrow(/label .* is not allowed/);
    await expect(store.resolve('main', 'agent:main:a%00')).rejects.toThrow(/not allowed/);
    expect(await readdir(home)).toEqual([]);
  });

  it('pins and archives without moving a chat among the most recent; list filters archived', async () => {
    const a = await store.resolve('main', 'agent:main:a');
    clock.advance(1000);
    await store.resolve('main', 'agent:main:b');
    clock.advance(1000);
    await store.resolve('main', 'agent:main:c');
    await store.patch('main', 'agent:main:a', { pinned: true });
    await store.patch('main', 'agent:main:b', { archived: true });
    expect((await store.get('main', 'agent:main:a'))?.updatedAt).toBe(a.updatedAt);

    const shown = await store.list({ agentId: 'main', archived: 'exclude', pinnedFirst: true });
    expect(shown.sessions.map((s) => s.key)).toEqual(['agent:main:a', 'agent:main:c']);
    const archived = await store.list({ agentId: 'main', archived: 'only' });
    expect(archived.sessions.map((s) => s.key)).toEqual(['agent:main:b']);
    // Older callers still see everything, newest first.
    expect((await store.list({ agentId: 'main' })).sessions.map((s) => s.key)).toEqual([
      'agent:main:c',
      'agent:main:b',
      'agent:main:a',
    ]);

    await store.patch('main', 'agent:main:a', { pinned: false });
    await store.patch('main', 'agent:main:b', { archived: null });
    // Flags survive a restart (they are in sessions.json), and cleared ones are gone.
    const reopened = await open().list({ agentId: 'main', archived: 'exclude' });
    expect(reopened.totalCount).toBe(3);
    expect(reopened.sessions.every((s) => !s.pinned && !s.archived)).toBe(true);
  });

  it('deletes for good: the transcript, the earlier ones of the key, and the index entry', async () => {
    const first = await store.resolve('main', 'agent:main:scratch');
    await store.append('main', first.sessionId, [user(1)]);
    const second = await store.reset('main', 'agent:main:scratch');
    await store.append('main', second.sessionId, [user(2)]);
    const keep = await store.resolve('main', 'main');
    await store.sync('main', second.sessionId);

    expect(await store.delete('main', 'agent:main:scratch', { removeTranscripts: true })).toBe(true);
    expect((await readdir(paths.sessionsDir('main'))).sort()).toEqual([`${keep.sessionId}.jsonl`, 'sessions.json']);
    expect(await store.get('main', 'agent:main:scratch')).toBeUndefined();
    // Nothing for an index rebuild to bring back.
    await writeFile(join(paths.sessionsDir('main'), 'sessions.json'), 'garbage');
    expect((await open().list()).sessions.map((s) => s.key)).toEqual(['agent:main:main']);
  });

  it('forks from a message: a new session with the transcript up to it, the source untouched', async () => {
    const changes: SessionChange[] = [];
    const listening = store.onDidChange((change) => changes.push(change));
    onTestFinished(() => listening.dispose());
    const source = await store.resolve('main', 'main');
    await store.patch('main', 'main', { title: 'Trip planning', model: 'openai/gpt-4o' });
    await store.append('main', source.sessionId, [user(1), assistant(2), user(3), assistant(4)]);

    const fork = await store.fork('main', 'main', { messageId: 'a2', newKey: 'agent:main:trip-b' });
    expect(fork).toMatchObject({
      key: 'agent:main:trip-b',
      title: 'Trip planning',
      model: 'openai/gpt-4o',
      messageCount: 2,
      forkedFrom: { key: 'agent:main:main', sessionId: source.sessionId, messageId: 'a2' },
    });
    expect((await store.read('main', fork.sessionId)).messages).toEqual([user(1), assistant(2)]);
    expect((await store.read('main', source.sessionId)).messages).toHaveLength(4);
    expect(changes.at(-1)).toMatchObject({ reason: 'forked', key: 'agent:main:trip-b' });
    // The fork is on disk: a fresh store reads it.
    expect((await open().get('main', 'agent:main:trip-b'))?.forkedFrom?.messageId).toBe('a2');
  });

  it('a fork at a tool call keeps its result, so the model sees every call answered', async () => {
    const source = await store.resolve('main', 'main');
    const call: AgentMessage = { kind: 'tool_call', id: 't1', ts: 2, toolCallId: 'c1', toolName: 'exec', input: {} };
    const result: AgentMessage = {
      kind: 'tool_result',
      id: 't2',
      ts: 3,
      toolCallId: 'c1',
      toolName: 'exec',
      output: 'ok',
    };
    await store.append('main', source.sessionId, [user(1), call, result, assistant(4)]);
    const fork = await store.fork('main', 'main', { messageId: 't1', newKey: 'agent:main:at-call' });
    expect((await store.read('main', fork.sessionId)).messages.map((m) => m.id)).toEqual(['u1', 't1', 't2']);
  });

  it('forks through the end of a run, for a reply the client saw stream without its stored id', async () => {
    const source = await store.resolve('main', 'main');
    const asked: AgentMessage = { kind: 'user', id: 'u1', ts: 1, text: 'first', runId: 'run-1' };
    const again: AgentMessage = { kind: 'user', id: 'u3', ts: 3, text: 'second', runId: 'run-2' };
    await store.append('main', source.sessionId, [asked, assistant(2), again, assistant(4)]);
    const fork = await store.fork('main', 'main', { runId: 'run-1', newKey: 'agent:main:after-first' });
    expect((await store.read('main', fork.sessionId)).messages.map((m) => m.id)).toEqual(['u1', 'a2']);
    expect(fork.forkedFrom?.messageId).toBe('a2');
    await expect(store.fork('main', 'main', { runId: 'run-9', newKey: 'agent:main:z' })).rejects.toThrow(
      /no run "run-9"/,
    );
  });

  it('refuses a fork from an unknown message or onto an existing key', async () => {
    const source = await store.resolve('main', 'main');
    await store.append('main', source.sessionId, [user(1)]);
    await store.resolve('main', 'agent:main:taken');
    await expect(store.fork('main', 'main', { messageId: 'nope', newKey: 'agent:main:x' })).rejects.toThrow(
      /no message "nope"/,
    );
    await expect(store.fork('main', 'main', { messageId: 'u1', newKey: 'agent:main:taken' })).rejects.toThrow(
      /agent:main:taken already exists/,
    );
    await expect(store.fork('main', 'agent:main:missing', { messageId: 'u1', newKey: 'agent:main:y' })).rejects.toThrow(
      /no session agent:main:missing/,
    );
  });
});
