import type { AgentMessage, AgentRuntime } from '../../agent/index.js';
import { RunConflictError } from '../../agent/index.js';
import { type Disposable, DisposableStore } from '../../base/index.js';
import { GatewayError, invalidRequest, notFound } from '../../protocol/index.js';
import type { ChatHistoryMessage } from '../../protocol/methods/chat.js';
import { FailoverError, ModelRefError, ModelResolutionError, ProviderConfigError } from '../../providers/index.js';
import { normalizeSessionKey, parseSessionKey, SessionKeyError, SessionStoreError } from '../../sessions/index.js';
import type { CallContext, MethodRouter } from '../method-router.js';

/** A chat command answered by the gateway itself (no model turn): `/approve …` and the like. */
export type ChatCommandHandler = (
  message: string,
  call: CallContext,
  chat: { sessionKey: string },
) =>
  | { name: string; ok: boolean; reply: string }
  | undefined
  | Promise<{ name: string; ok: boolean; reply: string } | undefined>;

export interface ChatMethodsDeps {
  runtime: AgentRuntime;
  /** Tried in order before a turn starts; the first that recognises the message answers it. */
  commands?: readonly ChatCommandHandler[];
  /** Resolves a channel/peer route to a session key through agents.bindings (chat.send without sessionKey). */
  route?(input: {
    channel: string;
    accountId?: string;
    peerKind: 'direct' | 'group' | 'channel';
    peerId: string;
    guildId?: string;
  }): {
    sessionKey: string;
  };
}

/** Runtime and input errors become wire errors; a provider failure keeps its reason in details. */
export function toChatGatewayError(error: unknown): unknown {
  if (error instanceof GatewayError) return error;
  if (error instanceof RunConflictError) {
    return invalidRequest(error.message, { reason: 'chat-request-conflict', runId: error.runId });
  }
  if (
    error instanceof SessionKeyError ||
    error instanceof ModelRefError ||
    error instanceof ModelResolutionError ||
    error instanceof ProviderConfigError
  ) {
    return invalidRequest(error.message);
  }
  if (error instanceof TypeError && error.message.startsWith('message is empty')) return invalidRequest(error.message);
  if (error instanceof SessionStoreError) {
    return error.code === 'not_found' ? notFound(error.message) : invalidRequest(error.message);
  }
  if (error instanceof FailoverError) {
    return new GatewayError(
      'PROVIDER_ERROR',
      error.message,
      { reason: error.reason, provider: error.provider, model: error.model },
      {
        retryable: error.reason === 'rate_limit' || error.reason === 'overloaded' || error.reason === 'timeout',
        retryAfterMs: error.retryAfterMs,
      },
    );
  }
  if (error instanceof Error && /^no model configured/.test(error.message)) return invalidRequest(error.message);
  return error;
}

export function toHistoryMessage(message: AgentMessage): ChatHistoryMessage {
  const base = { id: message.id, ts: message.ts, kind: message.kind };
  const text = (value: string) => [{ type: 'text' as const, text: value }];
  switch (message.kind) {
    case 'user':
      return { ...base, role: 'user', content: text(message.text) };
    case 'assistant':
      return {
        ...base,
        role: 'assistant',
        content: text(message.text),
        model: message.model,
        usage: message.usage,
        stopReason: message.stopReason,
      };
    case 'tool_call':
      return {
        ...base,
        role: 'assistant',
        content: [],
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        input: message.input,
      };
    case 'tool_result':
      return {
        ...base,
        role: 'tool',
        content: text(message.output),
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        isError: message.isError,
      };
    case 'compaction_summary':
      return { ...base, role: 'system', content: text(message.summary) };
    case 'notification':
    case 'steering':
      return { ...base, role: 'system', content: text(message.text) };
  }
}

export function registerChatMethods(router: MethodRouter, deps: ChatMethodsDeps): Disposable {
  const store = new DisposableStore();
  const { runtime } = deps;

  store.add(
    router.handle('chat.send', async (params, call) => {
      let sessionKey = params.sessionKey;
      try {
        if (params.sessionKey && params.route) {
          throw invalidRequest('invalid chat.send params: pass sessionKey or route, not both');
        }
        if (!sessionKey && params.route) {
          if (!deps.route) throw invalidRequest('this gateway cannot route by channel/peer; pass sessionKey');
          sessionKey = deps.route(params.route).sessionKey;
        }
        if (!sessionKey) {
          throw invalidRequest("invalid chat.send params: must have required property 'sessionKey' (or a route)");
        }
        sessionKey = normalizeSessionKey(sessionKey);
      } catch (error) {
        throw toChatGatewayError(error);
      }
      for (const command of deps.commands ?? []) {
        const handled = await command(params.message, call, { sessionKey });
        if (handled) return { runId: params.idempotencyKey, status: 'ok' as const, command: handled };
      }
      let started: ReturnType<AgentRuntime['start']>;
      try {
        started = runtime.start({
          runId: params.idempotencyKey,
          sessionKey,
          message: params.message,
          attachments: params.attachments,
          timeoutMs: params.timeoutMs,
          thinking: params.thinking,
        });
      } catch (error) {
        throw toChatGatewayError(error);
      }
      const { run, reused } = started;
      if (!reused) return { runId: run.runId, status: 'started' as const };
      if (run.status === 'running') return { runId: run.runId, status: 'in_flight' as const };
      if (run.status === 'error' && run.error) throw toChatGatewayError(run.error);
      return { runId: run.runId, status: 'ok' as const };
    }),
  );

  store.add(
    router.handle('chat.history', async (params) => {
      try {
        const key = normalizeSessionKey(params.sessionKey);
        const agentId = parseSessionKey(key).agentId;
        const record = await runtime.sessions.resolve(agentId, key);
        const page = await runtime.sessions.read(agentId, record.sessionId, {
          limit: params.limit,
          before: params.cursor,
        });
        return {
          sessionKey: key,
          sessionId: record.sessionId,
          messages: page.messages.map(toHistoryMessage),
          hasMore: page.hasMore,
          nextCursor: page.nextCursor,
          deltaCursor: page.messages.at(-1)?.id,
          sessionInfo: {
            agentId,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
            title: record.title,
            model: record.model,
          },
        };
      } catch (error) {
        throw toChatGatewayError(error);
      }
    }),
  );

  store.add(
    router.handle('chat.abort', (params) => {
      try {
        const runIds = runtime.abort(params.sessionKey, params.runId);
        return { ok: true as const, aborted: runIds.length > 0, runIds };
      } catch (error) {
        throw toChatGatewayError(error);
      }
    }),
  );
  return store;
}
