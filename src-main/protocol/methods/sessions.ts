import { z } from 'zod';
import { method } from './define.js';

/**
 * One row of `sessions.list` / `sessions.get`. `kind` and `displayName` follow
 * OpenClaw's rows so its clients can show them; the rest is Hearth's.
 */
export interface SessionRow {
  key: string;
  /** OpenClaw's coarse kind: direct chats (and the main session), groups, or anything else. */
  kind: 'direct' | 'group' | 'unknown';
  agentId: string;
  sessionId: string;
  displayName: string;
  title?: string;
  model?: string;
  /** The channel the session is on (`telegram`, …); absent for the main session and named chats (Hearth's own UI). */
  channel?: string;
  /** A named chat's label (`work-notes` of `agent:main:work-notes`). */
  label?: string;
  createdAt: number;
  updatedAt: number;
  messageCount?: number;
  pinned?: boolean;
  archived?: boolean;
  /** A fork's source: the session and the last message it kept. */
  forkedFrom?: { key: string; sessionId: string; messageId: string };
}

/** What sessions.create, rename, pin, archive and fork answer: the session as it now is. */
export interface SessionsChangeResult {
  ok: true;
  key: string;
  session: SessionRow;
}

export interface SessionsListResult {
  count: number;
  totalCount: number;
  nextOffset: number | null;
  hasMore: boolean;
  sessions: SessionRow[];
  /** The model a new turn would use (OpenClaw's `defaults`). */
  defaults?: import('./openclaw-chat.js').SessionDefaults;
}

export interface SessionsGetResult {
  session: SessionRow;
}

export interface SessionsResetResult {
  ok: true;
  key: string;
  sessionId: string;
  /** The transcript that was set aside (still on disk). */
  previousSessionId?: string;
  session: SessionRow;
}

export interface SessionsDeleteResult {
  ok: true;
  key: string;
  deleted: boolean;
  /** True when the transcript files went too (`deleteTranscript`), not only the index entry. */
  transcriptDeleted?: boolean;
}

/** A chat's title as a person types it: trimmed, one line, at most 200 characters. */
const title = z
  .string()
  .trim()
  .min(1, 'title is empty')
  .max(200, 'title is longer than 200 characters')
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'title must be one line without control characters');

/** `{key}` (OpenClaw) or `{sessionKey}` (chat.* spelling); exactly one. */
const keyParams = {
  key: z.string().min(1).optional(),
  sessionKey: z.string().min(1).optional(),
};

const oneKey = (params: { key?: string; sessionKey?: string }) =>
  (params.key === undefined) !== (params.sessionKey === undefined);
const oneKeyMessage = { message: 'give the session as either key or sessionKey (exactly one)' };

/** One hit of `sessions.search`: a session and its best-matching message (open it at `messageId`). */
export interface SessionSearchRow {
  key: string;
  agentId: string;
  sessionId: string;
  displayName: string;
  title?: string;
  archived?: boolean;
  updatedAt: number;
  messageId: string;
  role: 'user' | 'assistant';
  /** When the message was said. */
  ts: number;
  /** ~160 characters around the first match, `…` where cut. */
  snippet: string;
  /** Messages of the session that matched. */
  matches: number;
}

export interface SessionsSearchResult {
  results: SessionSearchRow[];
}

export const sessionsMethods = {
  /** Full-text search over what was said in the transcripts (Chinese included), best session first. */
  'sessions.search': method<SessionsSearchResult>()({
    scope: 'operator.sessions.read',
    params: () =>
      z
        .object({
          query: z.string().trim().min(1, 'query is empty: type a word said in the chat').max(500),
          agentId: z.string().min(1).optional(),
          limit: z.number().int().min(1).max(50).optional(),
          /** Archived sessions too (default true). */
          includeArchived: z.boolean().optional(),
        })
        .strict(),
  }),
  'sessions.list': method<SessionsListResult>()({
    scope: 'operator.sessions.read',
    params: () =>
      z
        .object({
          limit: z.number().int().min(1).max(1000).optional(),
          offset: z.number().int().min(0).optional(),
          search: z.string().optional(),
          agentId: z.string().min(1).optional(),
          /** Only sessions updated within this many minutes. */
          activeMinutes: z.number().int().positive().optional(),
          /** Archived sessions: left out (`exclude`, the default), `only` them, or `all` (OpenClaw's spelling). */
          archived: z.enum(['exclude', 'only', 'all']).optional(),
        })
        .strict(),
  }),
  /** A fresh named chat of an agent (`agent:<agentId>:<label>`); the label is made up when not given. */
  'sessions.create': method<SessionsChangeResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    idempotent: true,
    params: () =>
      z
        .object({
          agentId: z.string().min(1).optional(),
          label: z.string().min(1).max(128).optional(),
          title: title.optional(),
          idempotencyKey: z.string().min(1).optional(),
        })
        .strict(),
  }),
  'sessions.rename': method<SessionsChangeResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({ ...keyParams, title: title.nullable() })
        .strict()
        .refine(oneKey, oneKeyMessage),
  }),
  'sessions.pin': method<SessionsChangeResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({ ...keyParams, pinned: z.boolean() })
        .strict()
        .refine(oneKey, oneKeyMessage),
  }),
  'sessions.archive': method<SessionsChangeResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({ ...keyParams, archived: z.boolean() })
        .strict()
        .refine(oneKey, oneKeyMessage),
  }),
  /**
   * A new named chat holding the transcript up to `messageId` (and that message's tool results),
   * or through the end of run `runId` (a reply the client saw stream but has no stored id for).
   */
  'sessions.fork': method<SessionsChangeResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    idempotent: true,
    params: () =>
      z
        .object({
          ...keyParams,
          messageId: z.string().min(1).optional(),
          runId: z.string().min(1).optional(),
          label: z.string().min(1).max(128).optional(),
          title: title.optional(),
          idempotencyKey: z.string().min(1).optional(),
        })
        .strict()
        .refine(oneKey, oneKeyMessage)
        .refine((params) => (params.messageId === undefined) !== (params.runId === undefined), {
          message: 'fork from either messageId or runId (exactly one)',
        }),
  }),
  'sessions.get': method<SessionsGetResult>()({
    scope: 'operator.sessions.read',
    params: () => z.object(keyParams).strict().refine(oneKey, oneKeyMessage),
  }),
  'sessions.reset': method<SessionsResetResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    idempotent: true,
    params: () =>
      z
        .object({ ...keyParams, reason: z.string().optional(), idempotencyKey: z.string().min(1).optional() })
        .strict()
        .refine(oneKey, oneKeyMessage),
  }),
  'sessions.delete': method<SessionsDeleteResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    idempotent: true,
    params: () =>
      z
        .object({
          ...keyParams,
          /** Remove the transcript files too (OpenClaw's flag); without it they are renamed aside. */
          deleteTranscript: z.boolean().optional(),
          idempotencyKey: z.string().min(1).optional(),
        })
        .strict()
        .refine(oneKey, oneKeyMessage),
  }),
};
