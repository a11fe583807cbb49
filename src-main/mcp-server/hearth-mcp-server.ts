import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Clock, systemClock } from '../base/clock.js';
import { runChatTurn } from '../openai-api/index.js';
import { hasScope, type MethodName, methodTable, type Scope } from '../protocol/index.js';
import { EventLog } from './event-log.js';
import type { HearthConnection } from './hearth-connection.js';

export interface HearthMcpServerOptions {
  version: string;
  newId?: () => string;
  clock?: Clock;
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

function refusal(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

const sessionKey = z
  .string()
  .min(1)
  .describe('the conversation: "main", a session key from conversations_list (agent:<agentId>:…)');

/** Text of a transcript message in chat.history's shape. */
function messageText(message: { content: { type: string; text?: string }[] }): string {
  return message.content.map((part) => part.text ?? '').join('');
}

/**
 * Hearth as a tool for other agents (issue #15): its conversations, memory and open permission
 * requests as MCP tools, each calling the gateway method that a chat client would. A tool is
 * listed only when the connection's scopes cover its method, and the gateway checks again.
 */
export function createHearthMcpServer(connection: HearthConnection, options: HearthMcpServerOptions): McpServer {
  const newId = options.newId ?? randomUUID;
  const server = new McpServer(
    { name: 'hearth', version: options.version },
    {
      instructions:
        'Hearth is a personal agent. Read its conversations and memory, send it messages (each runs a turn of its agent), and answer the permission requests its tools are waiting on.',
    },
  );
  const allowed = (method: MethodName) => hasScope(connection.scopes, methodTable[method].scope as Scope);
  const call = async (method: MethodName, params: unknown, signal: AbortSignal) => {
    const outcome = await connection.call(method, params, signal);
    if (!outcome.ok) throw new ToolRefusal(outcome.error.message);
    return outcome.payload;
  };
  // Every tool answers a refusal (bad key, missing scope, gateway error) as a tool error the model can read.
  const guarded =
    <A>(run: (args: A, signal: AbortSignal) => Promise<CallToolResult>) =>
    async (args: A, extra: { signal: AbortSignal }) => {
      try {
        return await run(args, extra.signal);
      } catch (error) {
        if (error instanceof ToolRefusal) return refusal(error.message);
        throw error;
      }
    };

  if (allowed('sessions.list')) {
    server.registerTool(
      'conversations_list',
      {
        description: 'List Hearth conversations, most recently active first.',
        inputSchema: {
          agentId: z.string().min(1).optional().describe('only this agent’s conversations'),
          search: z.string().optional().describe('text to look for in titles and keys'),
          limit: z.number().int().min(1).max(200).optional(),
        },
        annotations: { readOnlyHint: true },
      },
      guarded(async (args: { agentId?: string; search?: string; limit?: number }, signal) => {
        const result = (await call('sessions.list', { ...args, limit: args.limit ?? 50 }, signal)) as {
          sessions: {
            key: string;
            agentId: string;
            title?: string;
            displayName: string;
            updatedAt: number;
            messageCount?: number;
          }[];
          hasMore: boolean;
        };
        return json({
          conversations: result.sessions.map((s) => ({
            sessionKey: s.key,
            agentId: s.agentId,
            title: s.title ?? s.displayName,
            updatedAt: new Date(s.updatedAt).toISOString(),
            messageCount: s.messageCount,
          })),
          hasMore: result.hasMore,
        });
      }),
    );
  }

  if (allowed('sessions.get')) {
    server.registerTool(
      'conversation_get',
      {
        description: 'One conversation’s details (agent, title, model, times, message count).',
        inputSchema: { sessionKey },
        annotations: { readOnlyHint: true },
      },
      guarded(async (args: { sessionKey: string }, signal) =>
        json((await call('sessions.get', { sessionKey: args.sessionKey }, signal)) as object),
      ),
    );
  }

  if (allowed('chat.history')) {
    server.registerTool(
      'messages_read',
      {
        description: 'Read the messages of a conversation, oldest first; pass `before` (a cursor) for older ones.',
        inputSchema: {
          sessionKey,
          limit: z.number().int().min(1).max(200).optional(),
          before: z.string().min(1).optional().describe('the nextCursor of a previous read'),
        },
        annotations: { readOnlyHint: true },
      },
      guarded(async (args: { sessionKey: string; limit?: number; before?: string }, signal) => {
        const page = (await call(
          'chat.history',
          { sessionKey: args.sessionKey, limit: args.limit ?? 50, cursor: args.before },
          signal,
        )) as {
          sessionKey: string;
          messages: { role: string; ts: number; toolName?: string; content: { type: string; text?: string }[] }[];
          hasMore: boolean;
          nextCursor?: string;
        };
        return json({
          sessionKey: page.sessionKey,
          messages: page.messages.map((m) => ({
            role: m.role,
            at: new Date(m.ts).toISOString(),
            ...(m.toolName ? { tool: m.toolName } : {}),
            text: messageText(m),
          })),
          hasMore: page.hasMore,
          ...(page.hasMore && page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        });
      }),
    );
  }

  if (allowed('chat.send')) {
    server.registerTool(
      'messages_send',
      {
        description:
          'Send a message to a Hearth conversation; its agent runs a turn (with its own tools, memory and approvals) and the answer is returned. The answer streams as progress notifications.',
        inputSchema: { sessionKey: sessionKey.default('main'), message: z.string().min(1) },
      },
      async (args: { sessionKey: string; message: string }, extra) => {
        const progressToken = extra._meta?.progressToken;
        let progress = 0;
        let notifications = Promise.resolve();
        const outcome = await runChatTurn(connection, {
          sessionKey: args.sessionKey,
          message: args.message,
          runId: `mcp-${newId()}`,
          signal: extra.signal,
          onDelta: (delta) => {
            if (progressToken === undefined) return;
            progress += 1;
            const params = { progressToken, progress, message: delta };
            // In order, and never failing the turn: a client that went away just misses them.
            notifications = notifications
              .then(() => extra.sendNotification({ method: 'notifications/progress', params }))
              .catch(() => {});
          },
        });
        await notifications;
        if (!outcome.ok) return refusal(outcome.error.message);
        return text(outcome.text);
      },
    );
  }

  if (allowed('memory.search')) {
    server.registerTool(
      'memory_search',
      {
        description: 'Search Hearth’s memory (its notes and daily files) for what it knows about something.',
        inputSchema: {
          query: z.string().min(1).max(2000),
          agentId: z.string().min(1).optional(),
          k: z.number().int().min(1).max(50).optional().describe('how many hits (default 8)'),
        },
        annotations: { readOnlyHint: true },
      },
      guarded(async (args: { query: string; agentId?: string; k?: number }, signal) => {
        const result = (await call('memory.search', { ...args, k: args.k ?? 8 }, signal)) as {
          results: { path: string; startLine: number; endLine: number; score: number; snippet: string }[];
        };
        return json({
          results: result.results.map((hit) => ({
            path: hit.path,
            lines: `${hit.startLine}-${hit.endLine}`,
            score: Number(hit.score.toFixed(3)),
            snippet: hit.snippet,
          })),
        });
      }),
    );
  }

  if (allowed('exec.approval.list')) {
    server.registerTool(
      'permissions_list_open',
      {
        description: 'Permission requests Hearth’s tools are waiting on (commands to run), with their ids.',
        inputSchema: {},
        annotations: { readOnlyHint: true },
      },
      guarded(async (_args: Record<string, never>, signal) => {
        const pending = (await call('exec.approval.list', {}, signal)) as {
          id: string;
          agentId: string;
          sessionKey?: string;
          command: string;
          cwd: string;
          expiresAtMs?: number;
        }[];
        return json({
          open: pending.map((p) => ({
            id: p.id,
            agentId: p.agentId,
            sessionKey: p.sessionKey,
            command: p.command,
            cwd: p.cwd,
          })),
        });
      }),
    );
  }

  if (allowed('exec.approval.resolve')) {
    server.registerTool(
      'permissions_respond',
      {
        description: 'Answer an open permission request: allow it once, allow it always, or deny it.',
        inputSchema: {
          id: z.string().min(1).describe('the id from permissions_list_open'),
          decision: z.enum(['allow-once', 'allow-always', 'deny']),
          note: z.string().max(500).optional(),
        },
        annotations: { destructiveHint: true },
      },
      guarded(async (args: { id: string; decision: string; note?: string }, signal) => {
        await call('exec.approval.resolve', args, signal);
        return text(`${args.decision}: ${args.id}`);
      }),
    );
  }

  // Events reach a caller that may read (the gateway filters them further by scope).
  if (hasScope(connection.scopes, 'operator.read')) {
    const log = new EventLog((listener) => connection.subscribe(listener), options.clock ?? systemClock);
    const closed = server.server.onclose;
    server.server.onclose = () => {
      log.dispose();
      closed?.();
    };
    const page = z.object({
      after: z.number().int().min(0).optional().describe('the cursor of the previous call; omit for what is kept'),
      limit: z.number().int().min(1).max(200).optional(),
    }).shape;
    server.registerTool(
      'events_poll',
      {
        description:
          'What happened since the cursor: new messages in any conversation, permission requests and answers, failed turns. Returns events and the next cursor.',
        inputSchema: page,
        annotations: { readOnlyHint: true },
      },
      async (args: { after?: number; limit?: number }) => json(log.poll(args.after ?? 0, args.limit ?? 50)),
    );
    server.registerTool(
      'events_wait',
      {
        description:
          'Like events_poll, but waits (up to timeoutMs, default 30 s) until something happens after the cursor; omit `after` to wait for what comes next.',
        inputSchema: { ...page, timeoutMs: z.number().int().min(0).max(300_000).optional() },
        annotations: { readOnlyHint: true },
      },
      async (args: { after?: number; limit?: number; timeoutMs?: number }, extra) =>
        json(await log.wait(args.after ?? log.cursor, args.limit ?? 50, args.timeoutMs ?? 30_000, extra.signal)),
    );
  }

  return server;
}

class ToolRefusal extends Error {}
