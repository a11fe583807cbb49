import type { AgentRuntime } from '../../agent/index.js';
import { type Disposable, DisposableStore } from '../../base/index.js';
import type { ApprovalRequest } from '../../exec/index.js';
import { approvalView } from '../../exec/index.js';
import { invalidRequest, notFound } from '../../protocol/index.js';
import type { SessionDefaults } from '../../protocol/methods/openclaw-chat.js';
import {
  normalizeSessionKey,
  parseSessionKey,
  SessionKeyError,
  type SessionPatch,
  SessionStoreError,
} from '../../sessions/index.js';
import type { MethodRouter } from '../method-router.js';
import { deltaCursorFor } from './openclaw-chat-delta.js';
import { openClawMessage, openClawSessionRow } from './openclaw-session-view.js';

export interface OpenClawChatDeps {
  runtime: AgentRuntime;
  /** Pending approvals, replayed to a client that opens a session (sessions.messages.subscribe). */
  pendingApprovals(): readonly ApprovalRequest[];
  defaults(agentId: string): SessionDefaults;
  /** Where the agent's canvas is served, for the UI's canvas surface. */
  canvasUrl(): string;
  now(): number;
}

/** OpenClaw's UI asks for 80 messages at start; a page of Hearth's store is at most 1000. */
const STARTUP_LIMIT = 80;

function addressOf(raw: string): { agentId: string; key: string } {
  try {
    const key = normalizeSessionKey(raw);
    return { agentId: parseSessionKey(key).agentId, key };
  } catch (error) {
    if (error instanceof SessionKeyError) throw invalidRequest(error.message);
    throw error;
  }
}

async function storeCall<T>(job: () => Promise<T>): Promise<T> {
  try {
    return await job();
  } catch (error) {
    if (error instanceof SessionStoreError)
      throw error.code === 'not_found' ? notFound(error.message) : invalidRequest(error.message);
    throw error;
  }
}

/**
 * The chat gate of OpenClaw's Control UI (chat.startup) and the session subscriptions it opens,
 * answered from Hearth's session store and runtime. Hearth sends every session's events to
 * every reader anyway, so the subscriptions acknowledge rather than filter.
 */
export function registerOpenClawChatMethods(router: MethodRouter, deps: OpenClawChatDeps): Disposable {
  const store = new DisposableStore();
  const { runtime } = deps;

  store.add(
    router.handle('chat.startup', (params) =>
      storeCall(async () => {
        const { agentId, key } = addressOf(params.sessionKey);
        const record = await runtime.sessions.resolve(agentId, key);
        const page = await runtime.sessions.read(agentId, record.sessionId, { limit: params.limit ?? STARTUP_LIMIT });
        const totalMessages = (page.hasMore && page.nextCursor ? Number(page.nextCursor) : 0) + page.messages.length;
        const defaults = deps.defaults(agentId);
        return {
          sessionKey: key,
          sessionId: record.sessionId,
          messages: page.messages.map(openClawMessage),
          hasMore: page.hasMore,
          totalMessages,
          pendingInputs: { items: [], total: 0 },
          deltaCursor: deltaCursorFor(record.sessionId, totalMessages),
          defaults,
          thinkingLevel: defaults.thinkingDefault,
          metadata: metadataFor(agentId),
          sessionInfo: { ...openClawSessionRow(record, defaults), status: 'done' },
        };
      }),
    ),
  );

  /** The models and chat commands the composer offers (chat.metadata, and chat.startup's `metadata`). */
  const metadataFor = (agentId: string) => {
    const primary = deps.defaults(agentId);
    const models = runtime.listModels().map((model) => ({
      id: model.id.slice(model.provider.length + 1) || model.id,
      name: model.name,
      provider: model.provider,
      contextWindow: model.contextWindow,
      reasoning: false,
      available: model.available,
      tags: model.id === `${primary.modelProvider}/${primary.model}` ? ['default'] : [],
      thinkingLevels: primary.thinkingLevels,
      thinkingDefault: primary.thinkingDefault,
    }));
    // Hearth's chat commands, answered by the gateway before a turn starts.
    const commands = [
      { name: 'new', description: 'Start a new session (the old one is kept).' },
      { name: 'approve', description: 'Answer a pending approval: /approve <id> allow-once|allow-always|deny.' },
    ].map((command) => ({
      ...command,
      nativeName: command.name,
      textAliases: [`/${command.name}`],
      category: 'session',
      source: 'native',
      scope: 'both',
      acceptsArgs: command.name === 'approve',
    }));
    return {
      models,
      commands,
      accountSelection: { kind: 'automatic' as const, label: 'Automatic account selection' },
      runtimeSelectionLocked: false,
      swarmEnabled: false,
    };
  };

  store.add(
    router.handle('chat.metadata', (params) =>
      metadataFor(params.agentId ?? (params.sessionKey ? addressOf(params.sessionKey).agentId : 'main')),
    ),
  );

  store.add(router.handle('sessions.subscribe', () => ({ subscribed: true as const })));

  store.add(
    router.handle('sessions.messages.subscribe', (params) => {
      const { key } = addressOf(params.key);
      const result = { subscribed: true as const, key };
      if (!params.includeApprovals) return result;
      const approvals = deps.pendingApprovals().filter((request) => request.sessionKey === key);
      return {
        ...result,
        approvalReplay: {
          sessionKey: key,
          updatedAtMs: deps.now(),
          approvals: approvals.map((request) => ({ approvalKind: 'exec', ...approvalView(request) })),
          truncated: false,
        },
      };
    }),
  );

  store.add(
    router.handle('sessions.describe', (params) =>
      storeCall(async () => {
        const { agentId, key } = addressOf(params.key);
        const record = await runtime.sessions.get(agentId, key);
        return { session: record ? openClawSessionRow(record, deps.defaults(agentId)) : null };
      }),
    ),
  );

  store.add(
    router.handle('sessions.patch', (params) =>
      storeCall(async () => {
        const { agentId, key } = addressOf(params.key);
        const patch: SessionPatch = {};
        if (params.label !== undefined) patch.title = params.label;
        if (params.model !== undefined) patch.model = params.model;
        if (params.pinned !== undefined) patch.pinned = params.pinned;
        if (params.archived !== undefined) patch.archived = params.archived;
        // Only read markers: nothing Hearth stores changes, but the session must exist.
        const record =
          Object.keys(patch).length > 0
            ? await runtime.sessions.patch(agentId, key, patch)
            : await runtime.sessions.get(agentId, key);
        if (!record) throw notFound(`no session ${key}`);
        return { ok: true as const, key, entry: openClawSessionRow(record, deps.defaults(agentId)) };
      }),
    ),
  );

  store.add(
    router.handle('sessions.branches.list', (params) =>
      storeCall(async () => {
        const { agentId, key } = addressOf(params.sessionKey);
        const record = await runtime.sessions.get(agentId, key);
        if (!record) return { branches: [] };
        const page = await runtime.sessions.read(agentId, record.sessionId, { limit: 1 });
        const last = page.messages.at(-1);
        const headline = last && 'text' in last && typeof last.text === 'string' ? last.text.slice(0, 120) : '';
        const messageCount = (page.hasMore && page.nextCursor ? Number(page.nextCursor) : 0) + page.messages.length;
        return {
          branches: last
            ? [
                {
                  leafEntryId: last.id,
                  headline,
                  messageCount,
                  updatedAt: new Date(record.updatedAt).toISOString(),
                  active: true,
                },
              ]
            : [],
        };
      }),
    ),
  );

  store.add(router.handle('sessions.catalog.list', () => ({ catalogs: [] })));
  store.add(router.handle('sessions.viewers.set', (params) => ({ sessionKeys: params.sessionKeys })));
  store.add(router.handle('sessions.observer.visibility', () => ({ ok: true as const })));
  store.add(router.handle('controlUi.sessionPullRequests.subscribe', () => ({ subscribed: false as const })));

  store.add(
    router.handle('plugin.surface.refresh', (params) => {
      if (params.surface !== 'canvas')
        throw invalidRequest(`unknown surface ${params.surface}: Hearth serves only the canvas`);
      return { surface: 'canvas', pluginSurfaceUrls: { canvas: deps.canvasUrl() }, expiresAtMs: deps.now() + 600_000 };
    }),
  );
  return store;
}
