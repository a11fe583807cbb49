import { z } from 'zod';
import { method } from './define.js';

/** A transcript message as the wire shows it (OpenClaw-style role + content parts, plus Hearth's kind). */
export interface ChatHistoryMessage {
  id: string;
  ts: number;
  /** The same as `ts`, under the name OpenClaw's clients read. */
  timestamp?: number;
  /** user | assistant | tool_call | tool_result | compaction_summary | notification | steering */
  kind: string;
  role: 'user' | 'assistant' | 'tool' | 'system';
  content: { type: 'text'; text: string }[];
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  isError?: boolean;
  model?: string;
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens: number };
  stopReason?: string;
  /** User messages: what was attached to it (the bytes stay in the transcript). */
  attachments?: { kind: 'image' | 'file'; mediaType: string; name?: string }[];
  /**
   * Set on a message that replaced a branch (edit and resend, Regenerate, Retry): the id of the
   * first message it takes the place of. History never shows the replaced ones; a live view drops them.
   */
  supersedes?: string;
  /** User messages: `<runId>:user`, the chat.send run the message started (OpenClaw's field). */
  idempotencyKey?: string;
}

export interface ChatSendResult {
  runId: string;
  /** started: a new run; in_flight: a retry while it runs; ok: a retry after it finished. */
  status: 'started' | 'in_flight' | 'ok';
  /** Set when the message was a chat command (e.g. `/approve <id> allow-once`) handled without a model turn. */
  command?: { name: string; ok: boolean; reply: string };
}

export interface ChatHistoryResult {
  sessionKey: string;
  sessionId: string;
  messages: ChatHistoryMessage[];
  hasMore: boolean;
  /** Pass as `cursor` to page towards older messages. */
  nextCursor?: string;
  /**
   * What a client has seen (first page only): pass it back as `cursor` to get only what was
   * added since, in OpenClaw's `{kind:"delta"}` shape (or `{kind:"reset"}` after a reset).
   */
  deltaCursor?: string;
  /** The model a new turn would use (OpenClaw's `defaults`). */
  defaults?: import('./openclaw-chat.js').SessionDefaults;
  sessionInfo: { agentId: string; createdAt: number; updatedAt: number; title?: string; model?: string };
}

export interface ChatAbortResult {
  ok: true;
  aborted: boolean;
  runIds: string[];
}

export const chatAttachmentSchema = z
  .object({
    kind: z.enum(['image', 'file']),
    mediaType: z.string().min(1),
    name: z.string().optional(),
    /** base64 */
    data: z.string().min(1),
  })
  .strict();

export const chatMethods = {
  'chat.send': method<ChatSendResult>()({
    scope: 'operator.write',
    params: () =>
      z
        .object({
          /** Either a session key ("main" = agent:main:main), or a route (channel + peer) resolved through agents.bindings. */
          sessionKey: z.string().min(1).optional(),
          route: z
            .object({
              channel: z.string().min(1),
              accountId: z.string().optional(),
              peerKind: z.enum(['direct', 'group', 'channel']),
              peerId: z.string().min(1),
              guildId: z.string().optional(),
            })
            .strict()
            .optional(),
          message: z.string(),
          idempotencyKey: z.string().min(1),
          /**
           * OpenClaw's UI sends the session id it loaded and the transcript leaf it saw. Hearth
           * transcripts are linear and a turn always goes to the key's current session, so both
           * are accepted and not checked.
           */
          sessionId: z.string().min(1).optional(),
          expectedLeafEntryId: z.string().min(1).optional(),
          thinking: z.string().optional(),
          attachments: z.array(chatAttachmentSchema).max(16).optional(),
          deliver: z.boolean().optional(),
          timeoutMs: z.number().int().positive().max(3_600_000).optional(),
          /**
           * Hearth: `last-answer` (Retry, Regenerate) answers the chat's last message of the person
           * again (send `message: ""`), replacing the old answer; `last-message` (edit and resend)
           * puts `message` in place of that message and its answer. Neither stores the question twice.
           */
          replace: z.enum(['last-answer', 'last-message']).optional(),
        })
        .strict(),
    idempotent: 'handler',
  }),
  'chat.history': method<ChatHistoryResult>()({
    scope: 'operator.read',
    params: () =>
      z
        .object({
          sessionKey: z.string().min(1),
          limit: z.number().int().min(1).max(1000).optional(),
          cursor: z.string().min(1).optional(),
        })
        .strict(),
  }),
  'chat.abort': method<ChatAbortResult>()({
    scope: 'operator.write',
    params: () => z.object({ sessionKey: z.string().min(1), runId: z.string().min(1).optional() }).strict(),
  }),
};
