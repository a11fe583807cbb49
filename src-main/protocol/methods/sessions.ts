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
  channel?: string;
  createdAt: number;
  updatedAt: number;
  messageCount?: number;
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
}

/** `{key}` (OpenClaw) or `{sessionKey}` (chat.* spelling); exactly one. */
const keyParams = {
  key: z.string().min(1).optional(),
  sessionKey: z.string().min(1).optional(),
};

const oneKey = (params: { key?: string; sessionKey?: string }) =>
  (params.key === undefined) !== (params.sessionKey === undefined);
const oneKeyMessage = { message: 'give the session as either key or sessionKey (exactly one)' };

export const sessionsMethods = {
  'sessions.list': method<SessionsListResult>()({
    scope: 'operator.sessions.read',
    params: z
      .object({
        limit: z.number().int().min(1).max(1000).optional(),
        offset: z.number().int().min(0).optional(),
        search: z.string().optional(),
        agentId: z.string().min(1).optional(),
        /** Only sessions updated within this many minutes. */
        activeMinutes: z.number().int().positive().optional(),
      })
      .strict(),
  }),
  'sessions.get': method<SessionsGetResult>()({
    scope: 'operator.sessions.read',
    params: z.object(keyParams).strict().refine(oneKey, oneKeyMessage),
  }),
  'sessions.reset': method<SessionsResetResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    idempotent: true,
    params: z
      .object({ ...keyParams, reason: z.string().optional(), idempotencyKey: z.string().min(1).optional() })
      .strict()
      .refine(oneKey, oneKeyMessage),
  }),
  'sessions.delete': method<SessionsDeleteResult>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    idempotent: true,
    params: z
      .object({ ...keyParams, idempotencyKey: z.string().min(1).optional() })
      .strict()
      .refine(oneKey, oneKeyMessage),
  }),
};
