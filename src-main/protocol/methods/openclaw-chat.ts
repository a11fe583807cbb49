import { z } from 'zod';
import type { ChatHistoryMessage } from './chat.js';
import { method } from './define.js';

// What OpenClaw's Control UI (2026.9.6) needs from a chat before it enables its composer, and the
// subscriptions it opens on a session. Shapes follow the recording in
// shared/fixtures/openclaw-control-ui-session.jsonl; docs/GATEWAY.md "OpenClaw clients" lists them.

/** The model a new turn in a session would use; OpenClaw's UI reads it from sessions.list, chat.history and chat.startup. */
export interface SessionDefaults {
  modelProvider: string | null;
  model: string | null;
  contextTokens: number | null;
  /** Model changes apply to the session (not the agent) in Hearth. */
  modelSelectionTarget: 'session';
  thinkingLevels: { id: string; label: string }[];
  thinkingOptions: string[];
  thinkingDefault: string;
}

export interface ChatStartupResult {
  sessionKey: string;
  sessionId: string;
  messages: (ChatHistoryMessage & { timestamp: number })[];
  hasMore: boolean;
  totalMessages: number;
  /** Hearth queues nothing between turns: always empty. */
  pendingInputs: { items: unknown[]; total: number };
  deltaCursor: string;
  defaults: SessionDefaults;
  thinkingLevel: string;
  /** What chat.metadata answers, so the composer needs no second round trip. */
  metadata: ChatMetadataResult;
  sessionInfo: Record<string, unknown>;
}

export interface ChatMetadataResult {
  models: Record<string, unknown>[];
  commands: Record<string, unknown>[];
  accountSelection: { kind: 'automatic'; label: string };
  runtimeSelectionLocked: boolean;
  swarmEnabled: boolean;
}

export interface SessionDescribeResult {
  session: Record<string, unknown> | null;
}

const sessionKey = z.string().min(1);

export const openClawChatMethods = {
  'chat.startup': method<ChatStartupResult>()({
    scope: 'operator.read',
    params: () => z.object({ sessionKey, limit: z.number().int().min(1).max(1000).optional() }).strict(),
  }),
  'chat.metadata': method<ChatMetadataResult>()({
    scope: 'operator.read',
    params: () => z.object({ sessionKey: sessionKey.optional(), agentId: z.string().min(1).optional() }).strict(),
  }),
  'sessions.subscribe': method<{ subscribed: true }>()({
    scope: 'operator.sessions.read',
    params: () => z.object({}).strict(),
  }),
  'sessions.messages.subscribe': method<{
    subscribed: true;
    key: string;
    approvalReplay?: { sessionKey: string; updatedAtMs: number; approvals: unknown[]; truncated: boolean };
  }>()({
    scope: 'operator.sessions.read',
    params: () => z.object({ key: sessionKey, includeApprovals: z.boolean().optional() }).strict(),
  }),
  'sessions.describe': method<SessionDescribeResult>()({
    scope: 'operator.sessions.read',
    params: () => z.object({ key: sessionKey }).strict(),
  }),
  /** OpenClaw's per-session patch; Hearth keeps a title and a model per session. */
  'sessions.patch': method<{ ok: true; key: string; entry: Record<string, unknown> }>()({
    scope: 'operator.sessions.write',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          key: sessionKey,
          label: z.string().max(200).nullable().optional(),
          model: z.string().min(1).nullable().optional(),
          pinned: z.boolean().nullable().optional(),
          archived: z.boolean().nullable().optional(),
          /** Read markers: Hearth has no unread state, so these are acknowledged and dropped. */
          unread: z.boolean().optional(),
          expectedMarkedUnreadAt: z.number().nullable().optional(),
        })
        .strict(),
  }),
  /** Hearth transcripts are linear: one branch, the transcript itself. */
  'sessions.branches.list': method<{ branches: Record<string, unknown>[] }>()({
    scope: 'operator.sessions.read',
    params: () => z.object({ sessionKey }).strict(),
  }),
  /** The UI tells the gateway which sessions are on screen; Hearth sends every session's events anyway. */
  'sessions.viewers.set': method<{ sessionKeys: string[] }>()({
    scope: 'operator.sessions.read',
    params: () => z.object({ sessionKeys: z.array(z.string()).max(1000) }).strict(),
  }),
  'sessions.observer.visibility': method<{ ok: true }>()({
    scope: 'operator.sessions.read',
    params: () => z.object({ visible: z.boolean() }).strict(),
  }),
  /** Pull-request tracking of sessions: not a Hearth feature, so the subscription is declined. */
  'controlUi.sessionPullRequests.subscribe': method<{ subscribed: false }>()({
    scope: 'operator.sessions.read',
    params: () => z.object({ sessionKeys: z.array(z.string()).max(1000).optional() }).strict(),
  }),
  /** Other coding agents' sessions (Claude Code…) on the gateway's hosts: Hearth catalogues none. */
  'sessions.catalog.list': method<{ catalogs: unknown[] }>()({
    scope: 'operator.sessions.read',
    params: () => z.object({}).strict(),
  }),
  /** The agent's canvas (Hearth serves it at /__hearth__/canvas/). */
  'plugin.surface.refresh': method<{
    surface: string;
    pluginSurfaceUrls: Record<string, string>;
    expiresAtMs: number;
  }>()({
    scope: 'operator.read',
    params: () => z.object({ surface: z.string().min(1), observedUrl: z.string().optional() }).strict(),
  }),
};
