import { z } from 'zod';
import type { SessionStore } from '../../sessions/index.js';
import type { AgentMessage } from '../../transcript/index.js';
import type { ToolDefinition, ToolOutput } from '../tool.js';
import type { SessionSearchIndex } from './session-search-index.js';

const READ_MAX_CHARS = 20_000;
const MESSAGE_MAX_CHARS = 2_000;

const day = (ts: number) => new Date(ts).toISOString().slice(0, 16).replace('T', ' ');

function clip(text: string, max: number): string {
  const flat = text.trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}… [${flat.length - max} more characters]`;
}

function lineOf(message: AgentMessage): string | undefined {
  switch (message.kind) {
    case 'user':
      return `[${day(message.ts)}] user (${message.id}): ${clip(message.text, MESSAGE_MAX_CHARS)}`;
    case 'assistant':
      return message.text.trim()
        ? `[${day(message.ts)}] assistant (${message.id}): ${clip(message.text, MESSAGE_MAX_CHARS)}`
        : undefined;
    case 'tool_call':
      return `[${day(message.ts)}] tool call ${message.toolName} ${clip(JSON.stringify(message.input ?? {}), 200)}`;
    case 'tool_result':
      return `[${day(message.ts)}] tool result ${message.toolName}${message.isError ? ' (error)' : ''}: ${clip(message.output, 300)}`;
    case 'compaction_summary':
      return `[${day(message.ts)}] summary of earlier messages: ${clip(message.summary, MESSAGE_MAX_CHARS)}`;
    default:
      return undefined;
  }
}

/**
 * The model's view of its past conversations: list them, read one, and search what was said in
 * all of them. Only the agent's own sessions (another agent's are another person's context).
 */
export function createSessionTools(deps: {
  store: Pick<SessionStore, 'list' | 'get' | 'read'>;
  index: Pick<SessionSearchIndex, 'search'>;
}): ToolDefinition[] {
  const listInput = z
    .object({
      limit: z.number().int().min(1).max(100).optional(),
      title: z.string().max(200).optional().describe('only sessions whose key or title contains this'),
    })
    .strict();
  const list: ToolDefinition<z.infer<typeof listInput>> = {
    name: 'sessions_list',
    description: 'List your past chat sessions (key, title, last active), newest first.',
    inputSchema: listInput,
    async execute(input, context) {
      const page = await deps.store.list({
        agentId: context.agentId,
        limit: input.limit ?? 20,
        search: input.title,
        archived: 'include',
        pinnedFirst: true,
      });
      if (page.sessions.length === 0) return { output: 'No sessions.' };
      const rows = page.sessions.map((s) => {
        const flags = [
          s.pinned ? 'pinned' : '',
          s.archived ? 'archived' : '',
          s.key === context.sessionKey ? 'this chat' : '',
        ]
          .filter(Boolean)
          .join(', ');
        const count = s.messageCount === undefined ? '' : `, ${s.messageCount} messages`;
        return `${s.key} "${s.title ?? '(untitled)'}" — ${day(s.updatedAt)}${count}${flags ? ` (${flags})` : ''}`;
      });
      const more = page.hasMore ? `\n(${page.totalCount - page.sessions.length} more; raise limit)` : '';
      return { output: rows.join('\n') + more };
    },
  };

  const readInput = z
    .object({
      key: z.string().min(1).describe('a session key from sessions_list or sessions_search'),
      limit: z.number().int().min(1).max(500).optional().describe('newest messages to show (default 50)'),
      before: z.string().optional().describe('cursor from a previous read, for older messages'),
    })
    .strict();
  const read: ToolDefinition<z.infer<typeof readInput>> = {
    name: 'session_read',
    description: 'Read the messages of one past session, newest last.',
    inputSchema: readInput,
    async execute(input, context): Promise<ToolOutput> {
      const record = await deps.store.get(context.agentId, input.key).catch(() => undefined);
      if (!record)
        return { output: `no session "${input.key}" of this agent; find keys with sessions_list`, isError: true };
      let page: Awaited<ReturnType<typeof deps.store.read>>;
      try {
        page = await deps.store.read(context.agentId, record.sessionId, {
          limit: input.limit ?? 50,
          before: input.before,
        });
      } catch (error) {
        return { output: `cannot read ${input.key}: ${(error as Error).message}`, isError: true };
      }
      const lines = page.messages.map(lineOf).filter((line): line is string => line !== undefined);
      let output = lines.join('\n');
      if (output.length > READ_MAX_CHARS) output = `…${output.slice(-READ_MAX_CHARS)}`;
      const head = `${record.key} "${record.title ?? '(untitled)'}"`;
      const older = page.hasMore && page.nextCursor ? `\n(older messages: before "${page.nextCursor}")` : '';
      return { output: `${head}\n${output || '(no messages)'}${older}` };
    },
  };

  const searchInput = z
    .object({
      query: z.string().min(1).max(500).describe('words said in the conversation (any language)'),
      limit: z.number().int().min(1).max(20).optional(),
    })
    .strict();
  const search: ToolDefinition<z.infer<typeof searchInput>> = {
    name: 'sessions_search',
    description: 'Full-text search over what was said in all your past sessions; returns sessions with snippets.',
    inputSchema: searchInput,
    async execute(input, context) {
      const hits = await deps.index.search(input.query, { agentId: context.agentId, limit: input.limit ?? 8 });
      if (hits.length === 0) return { output: `Nothing said in past sessions matches "${input.query}".` };
      const rows = hits.map(
        (hit) =>
          `${hit.key} "${hit.title ?? '(untitled)'}" ${day(hit.ts)} ${hit.role} (${hit.messageId}, ${hit.matches} matching): ${hit.snippet}`,
      );
      return { output: `${rows.join('\n')}\nRead one with session_read {"key": ...}.` };
    },
  };
  return [list, read, search] as ToolDefinition[];
}
