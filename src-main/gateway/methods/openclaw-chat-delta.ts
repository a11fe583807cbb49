import type { AgentMessage } from '../../agent/index.js';
import type { SessionStore } from '../../sessions/index.js';
import { openClawMessage } from './openclaw-session-view.js';

/**
 * OpenClaw's chat cursor: `chat.history{cursor: deltaCursor}` asks for what was added since,
 * not for an older page. Hearth's paging cursors are plain indexes ("120"), so a delta cursor
 * is spelled apart: `delta:<sessionId>:<messages seen>`. A reset session (new id) or a shorter
 * transcript answers `{kind:"reset"}`, and the client reloads from scratch.
 */
const PREFIX = 'delta:';

/** Transcript messages read at most for one delta (the store's read ceiling). */
const MAX_READ = 10_000;

export function deltaCursorFor(sessionId: string, seen: number): string {
  return `${PREFIX}${sessionId}:${seen}`;
}

export function isDeltaCursor(cursor: string | undefined): cursor is string {
  return cursor?.startsWith(PREFIX) === true;
}

function parseDeltaCursor(cursor: string): { sessionId: string; seen: number } | undefined {
  const rest = cursor.slice(PREFIX.length);
  const colon = rest.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const seen = Number(rest.slice(colon + 1));
  return Number.isSafeInteger(seen) && seen >= 0 ? { sessionId: rest.slice(0, colon), seen } : undefined;
}

/** How many messages a transcript holds, from one short read. */
export async function transcriptLength(store: SessionStore, agentId: string, sessionId: string): Promise<number> {
  const page = await store.read(agentId, sessionId, { limit: 1 });
  return page.hasMore && page.nextCursor ? Number(page.nextCursor) + page.messages.length : page.messages.length;
}

export type ChatDelta =
  | { kind: 'reset' }
  | {
      kind: 'delta';
      sessionKey: string;
      sessionId: string;
      messages: { sessionKey: string; agentId: string; message: unknown; messageId: string; messageSeq: number }[];
      deltaCursor: string;
      hasMore: false;
      sessionInfo: Record<string, unknown>;
    };

export async function readChatDelta(
  store: SessionStore,
  input: { agentId: string; sessionKey: string; cursor: string },
): Promise<ChatDelta> {
  const wanted = parseDeltaCursor(input.cursor);
  const record = await store.resolve(input.agentId, input.sessionKey);
  if (!wanted || wanted.sessionId !== record.sessionId) return { kind: 'reset' };
  const total = await transcriptLength(store, input.agentId, record.sessionId);
  if (wanted.seen > total) return { kind: 'reset' };
  const added = total - wanted.seen;
  if (added > MAX_READ) return { kind: 'reset' };
  const messages: AgentMessage[] =
    added === 0 ? [] : (await store.read(input.agentId, record.sessionId, { limit: added })).messages;
  return {
    kind: 'delta',
    sessionKey: record.key,
    sessionId: record.sessionId,
    messages: messages.map((message, index) => ({
      sessionKey: record.key,
      agentId: input.agentId,
      message: openClawMessage(message),
      messageId: message.id,
      messageSeq: wanted.seen + index + 1,
    })),
    deltaCursor: deltaCursorFor(record.sessionId, total),
    hasMore: false,
    sessionInfo: { sessionId: record.sessionId, agentId: input.agentId, updatedAt: record.updatedAt },
  };
}
