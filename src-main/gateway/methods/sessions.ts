import { randomUUID } from 'node:crypto';
import { type Clock, type Disposable, DisposableStore, systemClock } from '../../base/index.js';
import { invalidRequest, notFound } from '../../protocol/index.js';
import type { SessionDefaults } from '../../protocol/methods/openclaw-chat.js';
import type { SessionRow } from '../../protocol/methods/sessions.js';
import {
  checkSessionLabel,
  DEFAULT_AGENT_ID,
  formatSessionKey,
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
  /** Labels for new chats (`chat-<id>`); tests pass a counter. */
  newLabel?: () => string;
}

/** A readable name for a session without a title: never the raw `agent:main:main`. */
export function sessionDisplayName(key: string): string {
  const parsed = parseSessionKey(key);
  switch (parsed.kind) {
    case 'main':
      return parsed.agentId === DEFAULT_AGENT_ID ? 'Main' : `${parsed.agentId} · main`;
    case 'named':
      return parsed.label;
    case 'task':
      return `${parsed.scope} ${parsed.id}`;
    case 'peer':
      return [parsed.channel, parsed.peerKind === 'direct' ? undefined : parsed.peerKind, parsed.peerId]
        .filter((part) => part !== undefined)
        .join(' · ');
  }
}

/** `chat-` and 8 hex characters of a random UUID: short, and unlikely to meet another. */
function randomChatLabel(): string {
  return `chat-${randomUUID().replaceAll('-', '').slice(0, 8)}`;
}

/** A label from the wire: checked like a key part, so a bad one is a clear invalid request. */
function namedKey(agentId: string, label: string): string {
  return formatSessionKey({ kind: 'named', agentId, label: checkSessionLabel(label) });
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
    parsed.kind === 'main' || parsed.kind === 'named' || (parsed.kind === 'peer' && parsed.peerKind === 'direct')
      ? 'direct'
      : parsed.kind === 'peer'
        ? 'group'
        : 'unknown';
  const row: SessionRow = {
    key: record.key,
    kind,
    agentId: record.agentId,
    sessionId: record.sessionId,
    displayName: record.title ?? sessionDisplayName(record.key),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  if (record.title !== undefined) row.title = record.title;
  if (record.model !== undefined) row.model = record.model;
  if (parsed.kind === 'peer' && parsed.channel !== undefined) row.channel = parsed.channel;
  if (parsed.kind === 'named') row.label = parsed.label;
  if (record.messageCount !== undefined) row.messageCount = record.messageCount;
  if (record.pinned) row.pinned = true;
  if (record.archived) row.archived = true;
  if (record.forkedFrom) row.forkedFrom = { ...record.forkedFrom };
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
          archived: params.archived === 'all' ? 'include' : (params.archived ?? 'exclude'),
          pinnedFirst: true,
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
        const removeTranscripts = params.deleteTranscript === true;
        const deleted = await store.delete(agentId, key, { removeTranscripts });
        return { ok: true as const, key, deleted, ...(removeTranscripts ? { transcriptDeleted: deleted } : {}) };
      }),
    ),
  );

  const newLabel = deps.newLabel ?? randomChatLabel;
  const changed = (record: SessionRecord) => ({ ok: true as const, key: record.key, session: toSessionRow(record) });

  disposables.add(
    router.handle('sessions.create', (params) =>
      wire(async () => {
        const agentId = params.agentId ?? DEFAULT_AGENT_ID;
        const key = namedKey(agentId, params.label ?? newLabel());
        if (await store.get(agentId, key)) throw invalidRequest(`session ${key} already exists: pick another label`);
        let record = await store.resolve(agentId, key);
        if (params.title !== undefined) record = await store.patch(agentId, key, { title: params.title });
        return changed(record);
      }),
    ),
  );

  disposables.add(
    router.handle('sessions.rename', (params) =>
      wire(async () => {
        const { agentId, key } = addressOf(params);
        return changed(await store.patch(agentId, key, { title: params.title }));
      }),
    ),
  );

  disposables.add(
    router.handle('sessions.pin', (params) =>
      wire(async () => {
        const { agentId, key } = addressOf(params);
        return changed(await store.patch(agentId, key, { pinned: params.pinned }));
      }),
    ),
  );

  disposables.add(
    router.handle('sessions.archive', (params) =>
      wire(async () => {
        const { agentId, key } = addressOf(params);
        return changed(await store.patch(agentId, key, { archived: params.archived }));
      }),
    ),
  );

  disposables.add(
    router.handle('sessions.fork', (params) =>
      wire(async () => {
        const { agentId, key } = addressOf(params);
        const newKey = namedKey(agentId, params.label ?? newLabel());
        const record = await store.fork(agentId, key, {
          ...(params.messageId !== undefined ? { messageId: params.messageId } : {}),
          ...(params.runId !== undefined ? { runId: params.runId } : {}),
          newKey,
          ...(params.title !== undefined ? { title: params.title } : {}),
        });
        return changed(record);
      }),
    ),
  );

  return disposables;
}
