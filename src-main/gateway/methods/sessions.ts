import { type Clock, type Disposable, DisposableStore, systemClock } from '../../base/index.js';
import { invalidRequest, notFound } from '../../protocol/index.js';
import type { SessionDefaults } from '../../protocol/methods/openclaw-chat.js';
import type { SessionRow } from '../../protocol/methods/sessions.js';
import {
  normalizeSessionKey,
  parseSessionKey,
  SessionKeyError,
  type SessionRecord,
  type SessionStore,
  SessionStoreError,
} from '../../sessions/index.js';
import type { EventBus } from '../event-bus.js';
import type { MethodRouter } from '../method-router.js';

export interface SessionsMethodsDeps {
  store: SessionStore;
  /** When given, every store change is announced as `sessions.changed` so open Control UIs refresh their list. */
  bus?: EventBus;
  clock?: Pick<Clock, 'now'>;
  /** The model a new turn would use (OpenClaw clients read `defaults` off sessions.list). */
  defaults?(agentId: string): SessionDefaults | undefined;
}

/** Store and key errors are the caller's fault (bad key, unknown session); anything else is ours. */
function toGatewayError(error: unknown): unknown {
  if (error instanceof SessionStoreError) {
    return error.code === 'not_found' ? notFound(error.message) : invalidRequest(error.message);
  }
  if (error instanceof SessionKeyError) {
    return invalidRequest(error.message);
  }
  return error;
}

async function wire<T>(job: () => Promise<T>): Promise<T> {
  try {
    return await job();
  } catch (error) {
    throw toGatewayError(error);
  }
}

/** The agent comes from the key itself ("main" is agent:main:main). */
function addressOf(params: { key?: string; sessionKey?: string }): { agentId: string; key: string } {
  const key = normalizeSessionKey((params.key ?? params.sessionKey)!);
  return { agentId: parseSessionKey(key).agentId, key };
}

export function toSessionRow(record: SessionRecord): SessionRow {
  const parsed = parseSessionKey(record.key);
  const kind =
    parsed.kind === 'main' || (parsed.kind === 'peer' && parsed.peerKind === 'direct')
      ? 'direct'
      : parsed.kind === 'peer'
        ? 'group'
        : 'unknown';
  const row: SessionRow = {
    key: record.key,
    kind,
    agentId: record.agentId,
    sessionId: record.sessionId,
    displayName: record.title ?? record.key,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  if (record.title !== undefined) row.title = record.title;
  if (record.model !== undefined) row.model = record.model;
  if (parsed.kind === 'peer' && parsed.channel !== undefined) row.channel = parsed.channel;
  if (record.messageCount !== undefined) row.messageCount = record.messageCount;
  return row;
}

export function registerSessionsMethods(router: MethodRouter, deps: SessionsMethodsDeps): Disposable {
  const { store, bus } = deps;
  const clock = deps.clock ?? systemClock;
  const disposables = new DisposableStore();

  // Every change, whoever made it (these methods, a chat turn, the CLI in-process), reaches open UIs.
  // Per-turn `updated` notices may be dropped for a slow client; the next list call catches up.
  if (bus) {
    disposables.add(
      store.onDidChange((change) =>
        bus.publish('sessions.changed', { ...change }, { droppable: change.reason === 'updated' }),
      ),
    );
  }

  disposables.add(
    router.handle('sessions.list', (params) =>
      wire(async () => {
        const result = await store.list({
          agentId: params.agentId,
          limit: params.limit,
          offset: params.offset,
          search: params.search,
          updatedAfter: params.activeMinutes === undefined ? undefined : clock.now() - params.activeMinutes * 60_000,
        });
        const defaults = deps.defaults?.(params.agentId ?? 'main');
        return { ...result, sessions: result.sessions.map(toSessionRow), ...(defaults ? { defaults } : {}) };
      }),
    ),
  );

  disposables.add(
    router.handle('sessions.get', (params) =>
      wire(async () => {
        const { agentId, key } = addressOf(params);
        const record = await store.get(agentId, key);
        if (!record) throw notFound(`no session ${key}`);
        return { session: toSessionRow(record) };
      }),
    ),
  );

  disposables.add(
    router.handle('sessions.reset', (params) =>
      wire(async () => {
        const { agentId, key } = addressOf(params);
        const previous = await store.get(agentId, key);
        const record = await store.reset(agentId, key);
        const result = {
          ok: true as const,
          key: record.key,
          sessionId: record.sessionId,
          session: toSessionRow(record),
        };
        return previous ? { ...result, previousSessionId: previous.sessionId } : result;
      }),
    ),
  );

  disposables.add(
    router.handle('sessions.delete', (params) =>
      wire(async () => {
        const { agentId, key } = addressOf(params);
        const deleted = await store.delete(agentId, key);
        return { ok: true as const, key, deleted };
      }),
    ),
  );

  return disposables;
}
