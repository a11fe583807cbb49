import { z } from 'zod';
import { method } from './define.js';

/** OpenClaw's three, plus `allow-session` (Hearth: allow-once remembered for the session). */
const decision = z.enum(['allow-once', 'allow-always', 'deny', 'allow-session']);

/**
 * What "allow always" is keyed on: exec `binary` | `exact` | `folder` (these exact arguments, only
 * when run inside the request's folder); tools `tool` | `server` | `exact`.
 */
export type AlwaysScopeName = 'binary' | 'exact' | 'folder' | 'tool' | 'server';

/** An exec allowlist entry: a glob on the binary, and a regular expression on its arguments when pinned. */
export interface AllowlistEntryView {
  pattern: string;
  argPattern?: string;
  /** Only when the command runs in this folder or below it (absolute path; scope `folder`). */
  cwdWithin?: string;
}

/** The risk grade of an exec request, as every approval surface shows it. */
export interface ExecRiskView {
  level: 'safe' | 'caution' | 'destructive';
  because: { code: string; detail: string }[];
  writes: string[];
  network: boolean;
}

/** A pending request as `exec.approval.list`/`get` show it (the `exec.approval.requested` payload). */
export interface ExecApprovalView {
  id: string;
  agentId: string;
  sessionKey: string;
  command: string;
  cwd: string;
  host?: string;
  analysis: unknown;
  reasons: { code: string; detail: string }[];
  allowedDecisions: ('allow-once' | 'allow-always' | 'deny')[];
  createdAtMs: number;
  expiresAtMs: number;
  /** What the request is about: an MCP tool, a file path, a command. */
  subject?: { kind: 'exec' | 'mcp' | 'file' | 'network'; tool: string; server?: string; args: string; access: string };
  /** "Allow for this session" may be answered (`decision: "allow-session"`). */
  allowSession?: boolean;
  /** The scopes "allow always" may take; the first is the default. */
  alwaysScopes?: AlwaysScopeName[];
  /** The answer to put first: `session` for read-only requests (allowing them remembers them for the session). */
  suggested?: 'once' | 'session';
  /** Identical calls waiting on this one request; one answer settles them all. */
  waiting?: number;
  /** The allowlist entries "always" would add (exec), shown before the person chooses. */
  allowAlways?: AllowlistEntryView[];
  /** The same, pinned to these exact arguments (`allowAlwaysScope: "exact"`). */
  allowAlwaysExact?: AllowlistEntryView[];
  /** The same exact arguments, allowed only inside the request's folder (`allowAlwaysScope: "folder"`). */
  allowAlwaysFolder?: AllowlistEntryView[];
  /**
   * Exec: how much harm the command can do (`destructive`: Deny first, "always" only for these
   * exact arguments), the reasons, the files it writes and whether it uses the network.
   */
  risk?: ExecRiskView;
  /** PROTOCOL.md §7 shape. */
  request: { command: string; cwd: string; host: string; allowedDecisions: string[] };
}

export interface ExecApprovalRequestResult {
  id: string;
  /** null when no approver is connected (answered at once). */
  decision: 'allow-once' | 'allow-always' | 'deny' | null;
  createdAtMs: number;
  expiresAtMs: number;
  resolvedBy?: string;
  /** `resolvedBy: hard-floor`: the floor findings (code, detail); no request was created. */
  reasons?: { code: string; detail: string }[];
}

export interface ExecApprovalGetResult extends ExecApprovalView {
  status: 'pending' | 'resolved';
  resolution?: { decision: string; resolvedBy: string; reason?: string; resolvedAtMs: number };
}

export const execMethods = {
  'exec.approval.request': method<ExecApprovalRequestResult>()({
    scope: 'operator.approvals',
    params: z
      .object({
        command: z.string().min(1, 'command must not be empty'),
        cwd: z.string().optional(),
        host: z.string().optional(),
        sessionKey: z.string().optional(),
        agentId: z.string().optional(),
        timeoutMs: z
          .number()
          .int()
          .positive()
          .max(24 * 3_600_000)
          .optional(),
        twoPhase: z.boolean().optional(),
      })
      .strict(),
  }),
  'exec.approval.list': method<ExecApprovalView[]>()({
    scope: 'operator.approvals',
    params: z.object({}).strict(),
  }),
  'exec.approval.get': method<ExecApprovalGetResult>()({
    scope: 'operator.approvals',
    params: z.object({ id: z.string().min(1) }).strict(),
  }),
  'exec.approval.resolve': method<{ ok: true }>()({
    scope: 'operator.approvals',
    params: z
      .object({
        id: z.string().min(1),
        decision,
        note: z.string().max(500).optional(),
        /**
         * With allow-always: exec remembers any use of the binary (default), only these exact
         * arguments, or these exact arguments only inside this folder (`folder`); a tool, this tool
         * (default), every tool of its server, or these exact arguments.
         */
        allowAlwaysScope: z.enum(['binary', 'exact', 'folder', 'tool', 'server']).optional(),
        /** With allow-always: the rule stops applying then (ISO 8601 date or epoch ms, in the future). */
        until: z.union([z.iso.datetime({ offset: true }), z.iso.date(), z.number().int().positive()]).optional(),
      })
      .strict(),
    controlPlaneWrite: true,
  }),
};
