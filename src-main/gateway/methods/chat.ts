import type { AgentMessage, AgentRuntime } from '../../agent/index.js';
import { type Disposable, DisposableStore, markTurnPhase } from '../../base/index.js';
import { invalidRequest } from '../../protocol/index.js';
import type { ChatHistoryMessage, ChatHistoryResult } from '../../protocol/methods/chat.js';
import type { SessionDefaults } from '../../protocol/methods/openclaw-chat.js';
import { normalizeSessionKey, parseSessionKey } from '../../sessions/index.js';
import { withoutReplaced } from '../../transcript/index.js';
import type { CallContext, MethodRouter } from '../method-router.js';
import { deltaCursorFor, isDeltaCursor, readChatDelta } from './openclaw-chat-delta.js';

/** A chat command answered by the gateway itself (no model turn): `/approve …` and the like. */
export type ChatCommandHandler = (
  message: string,
  call: CallContext,
  chat: { sessionKey: string },
) =>
  | { name: string; ok: boolean; reply: string }
  | undefined
  | Promise<{ name: string; ok: boolean; reply: string } | undefined>;

/**
 * A chat command that is a model turn with another message (`/learn`): answers what the model is
 * sent instead, or undefined when the message is not the command. The run is an ordinary turn.
 */
export type ChatTurnCommand = (message: string, chat: { sessionKey: string }) => string | undefined;

export interface ChatMethodsDeps {
  runtime: AgentRuntime;
  /** Tried in order before a turn starts; the first that recognises the message answers it. */
  commands?: readonly ChatCommandHandler[];
  /** Tried after `commands`; the first that recognises the message rewrites the turn's message. */
  turnCommands?: readonly ChatTurnCommand[];
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
  /** The model a new turn would use (OpenClaw clients read `defaults` off chat.history). */
  defaults?(agentId: string): SessionDefaults | undefined;
}

export function toHistoryMessage(message: AgentMessage): ChatHistoryMessage {
  const base = {
    id: message.id,
    ts: message.ts,
    timestamp: message.ts,
    kind: message.kind,
    // A device that has the chat open learns from it that an edit or a regenerate replaced a branch.
    ...(message.supersedes ? { supersedes: message.supersedes } : {}),
  };
  const text = (value: string) => [{ type: 'text' as const, text: value }];
  switch (message.kind) {
    case 'user':
      return {
        ...base,
        role: 'user',
        content: text(message.text),
        // What was attached, so it shows as chips after a reload and on other devices (never the bytes).
        ...(message.attachments?.length
          ? {
              attachments: message.attachments.map(({ kind, mediaType, name }) => ({
                kind,
                mediaType,
                ...(name ? { name } : {}),
              })),
            }
          : {}),
        // OpenClaw's form of the run id on a user message; its UI drops its optimistic copy by it.
        ...(message.runId ? { idempotencyKey: `${message.runId}:user` } : {}),
      };
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

async function assertSomethingToReplace(
  runtime: AgentRuntime,
  sessionKey: string,
  replace: 'last-answer' | 'last-message',
): Promise<void> {
  const agentId = parseSessionKey(sessionKey).agentId;
  const record = await runtime.sessions.get(agentId, sessionKey);
  const page = record ? await runtime.sessions.read(agentId, record.sessionId, { limit: 1000 }) : undefined;
  if (!page?.messages.some((m) => m.kind === 'user')) {
    const what = replace === 'last-answer' ? 'retry or regenerate' : 'edit';
    throw invalidRequest(`nothing to ${what}: ${sessionKey} has no message of yours yet`);
  }
}

export function registerChatMethods(router: MethodRouter, deps: ChatMethodsDeps): Disposable {
  const store = new DisposableStore();
  const { runtime } = deps;

  store.add(
    router.handle('chat.send', async (params, call) => {
      markTurnPhase('handler');
      let sessionKey = params.sessionKey;
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
      // Retry / Regenerate / edit: refused in the response (not only as a failed run) when there is nothing to redo.
      if (params.replace) await assertSomethingToReplace(runtime, sessionKey, params.replace);
      for (const command of deps.commands ?? []) {
        const handled = await command(params.message, call, { sessionKey });
        if (handled) return { runId: params.idempotencyKey, status: 'ok' as const, command: handled };
      }
      let message = params.message;
      for (const command of deps.turnCommands ?? []) {
        const rewritten = command(params.message, { sessionKey });
        if (rewritten === undefined) continue;
        message = rewritten;
        break;
      }
      const { run, reused } = runtime.start({
        runId: params.idempotencyKey,
        sessionKey,
        message,
        attachments: params.attachments,
        timeoutMs: params.timeoutMs,
        thinking: params.thinking,
        ...(params.replace ? { replace: params.replace } : {}),
      });
      if (!reused) return { runId: run.runId, status: 'started' as const };
      if (run.status === 'running') return { runId: run.runId, status: 'in_flight' as const };
      // The run's own error (a HearthError from the runtime or a provider) answers the retry as it answered the first call.
      if (run.status === 'error' && run.error) throw run.error;
      return { runId: run.runId, status: 'ok' as const };
    }),
  );

  store.add(
    router.handle('chat.history', async (params) => {
      const key = normalizeSessionKey(params.sessionKey);
      const agentId = parseSessionKey(key).agentId;
      if (isDeltaCursor(params.cursor)) {
        // OpenClaw's "what is new since" read; its shape is OpenClaw's, not a page (openclaw-chat-delta.ts).
        const delta = await readChatDelta(runtime.sessions, { agentId, sessionKey: key, cursor: params.cursor });
        return delta as unknown as ChatHistoryResult;
      }
      const record = await runtime.sessions.resolve(agentId, key);
      const page = await runtime.sessions.read(agentId, record.sessionId, {
        limit: params.limit,
        before: params.cursor,
      });
      const seen = (page.hasMore && page.nextCursor ? Number(page.nextCursor) : 0) + page.messages.length;
      return {
        sessionKey: key,
        sessionId: record.sessionId,
        // What a Retry, Regenerate or edit replaced is not shown (transcript/replaced-messages.ts).
        messages: withoutReplaced(page.messages).map(toHistoryMessage),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
        deltaCursor: params.cursor === undefined ? deltaCursorFor(record.sessionId, seen) : undefined,
        ...(deps.defaults?.(agentId) ? { defaults: deps.defaults(agentId) } : {}),
        sessionInfo: {
          agentId,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
          title: record.title,
          model: record.model,
        },
      };
    }),
  );

  store.add(
    router.handle('chat.abort', (params) => {
      const runIds = runtime.abort(params.sessionKey, params.runId);
      return { ok: true as const, aborted: runIds.length > 0, runIds };
    }),
  );
  return store;
}
