import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import type { Logger } from '../base/logger.js';
import type { HearthPaths } from '../paths/index.js';
import type { AgentMessage } from '../transcript/index.js';
import { forkCut, lastMessageOfRun } from './fork-cut.js';
import { createKeyedSerializer } from './keyed-serializer.js';
import { type IndexEntry, loadIndex, writeIndex } from './session-index.js';
import { formatSessionKey, isValidAgentId, parseSessionKey } from './session-key.js';
import {
  type ReadResult,
  type SessionChange,
  type SessionRecord,
  type SessionStore,
  SessionStoreError,
} from './session-store-api.js';
import { checkAgentId, checkSessionId, notFoundAs, positiveInt } from './store-arguments.js';
import { createTranscriptCache } from './transcript-cache.js';
import { appendMessages, createTranscript, retireTranscript, syncTranscript } from './transcript-file.js';
import { removeTranscriptsOfKey } from './transcript-removal.js';

export interface SessionStoreDeps {
  paths: Pick<HearthPaths, 'sessionsDir' | 'agentDir'>;
  /** With `setTimeout`, a commit that says more of the turn follows may leave the index write to it. */
  clock: Pick<Clock, 'now'> & Partial<Pick<Clock, 'setTimeout'>>;
  log: Logger;
  newSessionId?: () => string;
  /** Transcripts kept parsed in memory (most recently used). */
  cacheSize?: number;
}

interface AgentState {
  entries: Map<string, IndexEntry>;
  keyBySessionId: Map<string, string>;
  dirty: boolean;
  /** A background write of the index is queued and has not started: later changes ride on it. */
  writeQueued: boolean;
  /** A commit left the index write to the turn's next commit; this writes it if none comes in time. */
  deferred?: Disposable;
}

/**
 * How long a commit made mid-turn (the user message, `turnContinues`) leaves `sessions.json` to
 * the turn's next commit: a fast turn writes the index once, a slow one (a real model, a tool
 * loop, an approval) at most this late for its user message.
 */
export const DEFERRED_INDEX_WRITE_MS = 1000;

const DEFAULT_READ_LIMIT = 200;
const MAX_READ_LIMIT = 10_000;
const MAX_LIST_LIMIT = 1000;
const DEFAULT_LIST_LIMIT = 50;

function titleFrom(messages: readonly AgentMessage[]): string | undefined {
  const first = messages.find((message) => message.kind === 'user');
  const text = first?.kind === 'user' ? first.text.replace(/\s+/g, ' ').trim() : '';
  if (!text) return undefined;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export function createSessionStore(deps: SessionStoreDeps): SessionStore {
  const { paths, clock, log } = deps;
  const newSessionId = deps.newSessionId ?? randomUUID;
  const queue = createKeyedSerializer();
  const agents = new Map<string, Promise<AgentState>>();
  const transcripts = createTranscriptCache({ log, clock, capacity: deps.cacheSize ?? 16 });
  const didChange = new Emitter<SessionChange>((error) => log.error('sessions.onDidChange listener threw', { error }));

  const transcriptPath = (agentId: string, sessionId: string) => join(paths.sessionsDir(agentId), `${sessionId}.jsonl`);

  function agentState(agentId: string): Promise<AgentState> {
    checkAgentId(agentId);
    let state = agents.get(agentId);
    if (!state) {
      state = loadIndex(paths.sessionsDir(agentId), agentId, clock.now(), log).then((entries) => ({
        entries,
        keyBySessionId: new Map([...entries].map(([key, entry]) => [entry.sessionId, key])),
        dirty: false,
        writeQueued: false,
      }));
      agents.set(agentId, state);
      // A failed load (permissions, disk) is retried on the next call rather than cached.
      state.catch(() => agents.delete(agentId));
    }
    return state;
  }

  function canonicalKey(agentId: string, sessionKey: string): string {
    checkAgentId(agentId);
    let parsed: ReturnType<typeof parseSessionKey>;
    try {
      parsed = parseSessionKey(sessionKey);
    } catch (error) {
      throw new SessionStoreError('invalid', (error as Error).message);
    }
    if (parsed.agentId !== agentId) {
      throw new SessionStoreError(
        'invalid',
        `session key ${JSON.stringify(sessionKey)} belongs to agent "${parsed.agentId}", not "${agentId}"`,
      );
    }
    return formatSessionKey(parsed);
  }

  const toRecord = (agentId: string, key: string, entry: IndexEntry): SessionRecord => ({ key, agentId, ...entry });

  async function persist(agentId: string, state: AgentState): Promise<void> {
    state.dirty = false;
    state.deferred?.dispose();
    state.deferred = undefined;
    try {
      await writeIndex(paths.sessionsDir(agentId), state.entries);
    } catch (error) {
      state.dirty = true;
      throw error;
    }
  }

  /** Index changes for one agent run one at a time. */
  const withAgent = <T>(agentId: string, job: (state: AgentState) => Promise<T>) =>
    queue.run(`index:${agentId}`, async () => job(await agentState(agentId)));

  // What `commit` leaves to the background: fsyncs of transcripts and index writes, awaited by `flush`.
  const background = new Set<Promise<void>>();
  const inBackground = (work: Promise<void>, what: string, context: Record<string, unknown>) => {
    const tracked = work.catch((error: unknown) => {
      // A transcript deleted or reset meanwhile has nothing left to make durable.
      if (error instanceof SessionStoreError && error.code === 'not_found') return;
      log.error(`${what} failed`, { ...context, error: error instanceof Error ? error.message : String(error) });
    });
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
  };

  // One transcript's fsyncs: a request while one runs (which may have started before the caller's
  // write) shares a single fsync after it, so a turn's two commits cost at most two, often one.
  const fsyncs = new Map<string, { done: Promise<void>; next?: Promise<void> }>();
  function fsyncCoalesced(agentId: string, sessionId: string, path: string): Promise<void> {
    const slot = fsyncs.get(path);
    if (slot) {
      slot.next ??= slot.done
        .catch(() => undefined)
        .then(() => {
          fsyncs.delete(path);
          return fsyncCoalesced(agentId, sessionId, path);
        });
      return slot.next;
    }
    const done = notFoundAs(agentId, sessionId, () => syncTranscript(path)).finally(() => {
      const current = fsyncs.get(path);
      if (current?.done === done && !current.next) fsyncs.delete(path);
    });
    fsyncs.set(path, { done });
    return done;
  }

  /** Writes the index once for every change made until the write starts. */
  function persistSoon(agentId: string, state: AgentState): Promise<void> {
    state.deferred?.dispose();
    state.deferred = undefined;
    if (state.writeQueued) return Promise.resolve();
    state.writeQueued = true;
    return withAgent(agentId, async (current) => {
      current.writeQueued = false;
      if (current.dirty) await persist(agentId, current);
    });
  }

  async function startSession(agentId: string, key: string, state: AgentState): Promise<SessionRecord> {
    const sessionId = newSessionId();
    const now = clock.now();
    await mkdir(paths.sessionsDir(agentId), { recursive: true, mode: 0o700 });
    await createTranscript(transcriptPath(agentId, sessionId), {
      type: 'session',
      version: 1,
      sessionId,
      key,
      agentId,
      createdAt: now,
    });
    const entry: IndexEntry = { sessionId, createdAt: now, updatedAt: now, messageCount: 0 };
    const previous = state.entries.get(key);
    if (previous?.model) entry.model = previous.model;
    state.entries.set(key, entry);
    state.keyBySessionId.set(sessionId, key);
    await persist(agentId, state);
    didChange.fire(
      previous
        ? { reason: 'reset', agentId, key, sessionId, previousSessionId: previous.sessionId }
        : { reason: 'created', agentId, key, sessionId },
    );
    return toRecord(agentId, key, entry);
  }

  function sessionPath(agentId: string, sessionId: string): string {
    return transcriptPath(checkAgentId(agentId), checkSessionId(sessionId));
  }

  async function knownAgentIds(): Promise<string[]> {
    const ids = new Set(agents.keys());
    try {
      for (const name of await readdir(dirname(paths.agentDir('main')))) if (isValidAgentId(name)) ids.add(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return [...ids].sort();
  }

  const api: SessionStore = {
    onDidChange: didChange.event,

    async resolve(agentId, sessionKey) {
      const key = canonicalKey(agentId, sessionKey);
      // A session that exists needs no index change, so it does not wait behind an index write.
      const known = (await agentState(agentId)).entries.get(key);
      if (known) return toRecord(agentId, key, known);
      return withAgent(agentId, async (state) => {
        const entry = state.entries.get(key);
        return entry ? toRecord(agentId, key, entry) : startSession(agentId, key, state);
      });
    },

    async get(agentId, sessionKey) {
      const key = canonicalKey(agentId, sessionKey);
      const entry = (await agentState(agentId)).entries.get(key);
      return entry ? toRecord(agentId, key, entry) : undefined;
    },

    async append(agentId, sessionId, messages) {
      const path = sessionPath(agentId, sessionId);
      const state = await agentState(agentId);
      await queue.run(`file:${path}`, async () => {
        await notFoundAs(agentId, sessionId, () => transcripts.ensureRepaired(path));
        await appendMessages(path, messages);
        transcripts.appended(path, messages);
      });
      const key = state.keyBySessionId.get(sessionId);
      const entry = key === undefined ? undefined : state.entries.get(key);
      if (!entry || entry.sessionId !== sessionId) return;
      entry.updatedAt = clock.now();
      if (entry.messageCount !== undefined) entry.messageCount += messages.length;
      entry.title ??= titleFrom(messages);
      state.dirty = true;
    },

    async sync(agentId, sessionId) {
      const path = sessionPath(agentId, sessionId);
      await queue.run(`file:${path}`, () => notFoundAs(agentId, sessionId, () => syncTranscript(path)));
      await withAgent(agentId, async (state) => {
        if (state.dirty) await persist(agentId, state);
        const key = state.keyBySessionId.get(sessionId);
        if (key !== undefined && state.entries.get(key)?.sessionId === sessionId) {
          didChange.fire({ reason: 'updated', agentId, key, sessionId });
        }
      });
    },

    async commit(agentId, sessionId, options = {}) {
      const path = sessionPath(agentId, sessionId);
      const state = await agentState(agentId);
      const key = state.keyBySessionId.get(sessionId);
      if (key !== undefined && state.entries.get(key)?.sessionId === sessionId) {
        didChange.fire({ reason: 'updated', agentId, key, sessionId });
      }
      inBackground(fsyncCoalesced(agentId, sessionId, path), 'transcript fsync', { agentId, sessionId });
      if (!state.dirty) return;
      // More of the turn follows (its reply): its commit writes the index once for both, unless
      // it takes longer than DEFERRED_INDEX_WRITE_MS. The transcript is not deferred, only the index.
      if (options.turnContinues && clock.setTimeout) {
        state.deferred ??= clock.setTimeout(() => {
          state.deferred = undefined;
          inBackground(persistSoon(agentId, state), 'session index write', { agentId });
        }, DEFERRED_INDEX_WRITE_MS);
        return;
      }
      inBackground(persistSoon(agentId, state), 'session index write', { agentId });
    },

    async read(agentId, sessionId, options = {}) {
      const path = sessionPath(agentId, sessionId);
      const limit = positiveInt('limit', options.limit, DEFAULT_READ_LIMIT, MAX_READ_LIMIT);
      const all = await queue.run(`file:${path}`, () =>
        notFoundAs(agentId, sessionId, () => transcripts.messages(path)),
      );
      let end = all.length;
      if (options.before !== undefined) {
        end = /^\d+$/.test(options.before) ? Number(options.before) : Number.NaN;
        if (!Number.isSafeInteger(end) || end > all.length) {
          throw new SessionStoreError('invalid', `invalid cursor ${JSON.stringify(options.before)}`);
        }
      }
      const start = Math.max(0, end - limit);
      const result: ReadResult = { messages: all.slice(start, end), hasMore: start > 0 };
      if (start > 0) result.nextCursor = String(start);
      return result;
    },

    async list(options = {}) {
      const limit = positiveInt('limit', options.limit, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
      const offset = options.offset ?? 0;
      if (!Number.isInteger(offset) || offset < 0) {
        throw new SessionStoreError('invalid', `offset must be a non-negative integer (got ${offset})`);
      }
      const ids = options.agentId !== undefined ? [checkAgentId(options.agentId)] : await knownAgentIds();
      const needle = options.search?.trim().toLowerCase();
      const archived = options.archived ?? 'include';
      const rows: SessionRecord[] = [];
      for (const agentId of ids) {
        for (const [key, entry] of (await agentState(agentId)).entries) {
          const record = toRecord(agentId, key, entry);
          const haystack = [key, entry.sessionId, agentId, entry.title ?? '', entry.model ?? ''].join('\n');
          if (options.updatedAfter !== undefined && entry.updatedAt < options.updatedAfter) continue;
          if (archived === 'exclude' && entry.archived) continue;
          if (archived === 'only' && !entry.archived) continue;
          if (!needle || haystack.toLowerCase().includes(needle)) rows.push(record);
        }
      }
      const pinRank = (row: SessionRecord) => (options.pinnedFirst && row.pinned ? 0 : 1);
      rows.sort((a, b) => pinRank(a) - pinRank(b) || b.updatedAt - a.updatedAt || a.key.localeCompare(b.key));
      const sessions = rows.slice(offset, offset + limit);
      const hasMore = offset + sessions.length < rows.length;
      return {
        count: sessions.length,
        totalCount: rows.length,
        nextOffset: hasMore ? offset + sessions.length : null,
        hasMore,
        sessions,
      };
    },

    async patch(agentId, sessionKey, patch) {
      const key = canonicalKey(agentId, sessionKey);
      return withAgent(agentId, async (state) => {
        const entry = state.entries.get(key);
        if (!entry) throw new SessionStoreError('not_found', `no session ${key}`);
        for (const field of ['title', 'model'] as const) {
          const value = patch[field];
          if (value === null) delete entry[field];
          else if (value !== undefined) entry[field] = value;
        }
        // Flags are stored only when set, so an index without them reads the same.
        for (const field of ['pinned', 'archived'] as const) {
          const value = patch[field];
          if (value === null || value === false) delete entry[field];
          else if (value === true) entry[field] = true;
        }
        // Pinning or archiving is not activity: the chat keeps its place among the most recent.
        if (patch.title !== undefined || patch.model !== undefined) entry.updatedAt = clock.now();
        await persist(agentId, state);
        didChange.fire({ reason: 'patched', agentId, key, sessionId: entry.sessionId });
        return toRecord(agentId, key, entry);
      });
    },

    async fork(agentId, sessionKey, options) {
      const sourceKey = canonicalKey(agentId, sessionKey);
      const newKey = canonicalKey(agentId, options.newKey);
      const source = await api.get(agentId, sourceKey);
      if (!source) throw new SessionStoreError('not_found', `no session ${sourceKey}`);
      const sourcePath = sessionPath(agentId, source.sessionId);
      const all = await queue.run(`file:${sourcePath}`, () =>
        notFoundAs(agentId, source.sessionId, () => transcripts.messages(sourcePath)),
      );
      if ((options.messageId === undefined) === (options.runId === undefined)) {
        throw new SessionStoreError('invalid', 'fork from either a messageId or a runId (exactly one)');
      }
      const messageId = options.messageId ?? lastMessageOfRun(all, options.runId!);
      const kept = forkCut(all, messageId);
      const record = await withAgent(agentId, async (state) => {
        if (state.entries.has(newKey)) throw new SessionStoreError('invalid', `session ${newKey} already exists`);
        const started = await startSession(agentId, newKey, state);
        const entry = state.entries.get(newKey)!;
        const title = options.title ?? source.title;
        if (title !== undefined) entry.title = title;
        if (source.model !== undefined) entry.model = source.model;
        entry.forkedFrom = { key: sourceKey, sessionId: source.sessionId, messageId };
        return { ...started, ...entry };
      });
      await api.append(agentId, record.sessionId, kept);
      await api.sync(agentId, record.sessionId);
      didChange.fire({ reason: 'forked', agentId, key: newKey, sessionId: record.sessionId });
      return (await api.get(agentId, newKey)) ?? record;
    },

    async reset(agentId, sessionKey) {
      const key = canonicalKey(agentId, sessionKey);
      return withAgent(agentId, (state) => startSession(agentId, key, state));
    },

    async delete(agentId, sessionKey, options = {}) {
      const key = canonicalKey(agentId, sessionKey);
      return withAgent(agentId, async (state) => {
        const entry = state.entries.get(key);
        if (!entry) return false;
        state.entries.delete(key);
        state.keyBySessionId.delete(entry.sessionId);
        await persist(agentId, state);
        const path = transcriptPath(agentId, entry.sessionId);
        await queue.run(`file:${path}`, async () => {
          transcripts.forget(path);
          if (options.removeTranscripts) {
            await removeTranscriptsOfKey(paths.sessionsDir(agentId), agentId, key, entry.sessionId);
          } else {
            await retireTranscript(path, clock.now());
          }
        });
        didChange.fire({ reason: 'deleted', agentId, key, previousSessionId: entry.sessionId });
        return true;
      });
    },

    async flush() {
      // A deferred index write is not waited for: it is made now, below.
      for (const state of agents.values()) {
        const loaded = await state.catch(() => undefined);
        loaded?.deferred?.dispose();
        if (loaded) loaded.deferred = undefined;
      }
      while (background.size > 0) await Promise.all([...background]);
      await queue.idle();
      for (const agentId of [...agents.keys()]) {
        await withAgent(agentId, async (state) => {
          if (state.dirty) await persist(agentId, state);
        });
      }
    },
  };
  return api;
}
