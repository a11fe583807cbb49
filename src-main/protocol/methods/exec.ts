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

/**
 * Why an approval asks, grades or refuses a request: every code main emits on a reason
 * (`{ code, detail }`). The code is what each surface translates; `detail` is English for the
 * log and the tooltip. A code added here without words on a surface that shows reasons to a
 * person breaks that surface's build (the Control UI's `Record<ApprovalReasonCode, …>`).
 */
export const approvalReasonCodes = [
  // The exec policy (policy-evaluator.ts): why it asks or refuses, what it matched.
  'security-deny',
  'security-full',
  'ask-off',
  'ask-always',
  'no-command',
  'safe-builtin',
  'allowlisted',
  'allowlist-miss',
  'arguments-miss',
  'path-spelled',
  'dynamic-command',
  'env-prefix',
  'risky-arguments',
  // The command analysis' findings (command-analysis.ts, invocation-rules.ts, shell-payloads.ts…).
  'obfuscation',
  'shell-payload',
  'shell-stdin',
  'interpreter-stdin',
  'interpreter-payload',
  'parse-error',
  'nesting-too-deep',
  'function-definition',
  'sensitive-assignment',
  'cwd-changed',
  'write-outside-workspace',
  'sensitive-read',
  'floor-unknown',
  // The hard floor (hard-floor.ts): refused whatever the policy says.
  'recursive-delete-root',
  'recursive-chmod-root',
  'move-root',
  'format-disk',
  'overwrite-disk',
  'fork-bomb',
  // The risk grade (risk-grade.ts): how much harm a command can do.
  'privilege',
  'irreversible',
  'runs-download',
  'writes-outside',
  'moves-files',
  'deletes',
  'recursive-permissions',
  'rewrites-remote',
  'discards-work',
  'publishes',
  'runs-code',
  'network',
  'writes-files',
  // Who else asks: exec.approval.request, the sandbox, MCP and CLI-backend tools, file and browser tools.
  'wire-request',
  'sandbox-relaxed',
  'approval-denied',
  'mcp-write',
  'mcp-destructive',
  'cli-permission',
  'outside-workspace',
  'browser-action',
] as const;
export type ApprovalReasonCode = (typeof approvalReasonCodes)[number];

/** One reason: the stable code, and an English detail naming the program, path or tool. */
export interface ApprovalReason {
  code: ApprovalReasonCode;
  detail: string;
}

/**
 * A reason as a client reads it off the wire: another gateway (a newer Hearth, an older one, an
 * OpenClaw-style one) may send a code this build has no words for; its `detail` is then shown.
 */
export interface ReceivedApprovalReason {
  code: string;
  detail: string;
}

const reasonCodeSet: ReadonlySet<string> = new Set(approvalReasonCodes);

/** A code this build has words for (every surface that translates reasons narrows with this). */
export function isApprovalReasonCode(code: string): code is ApprovalReasonCode {
  return reasonCodeSet.has(code);
}

/** The risk grade of an exec request, as every approval surface shows it. */
export interface ExecRiskView<Reason = ApprovalReason> {
  level: 'safe' | 'caution' | 'destructive';
  because: Reason[];
  writes: string[];
  network: boolean;
}

/**
 * A pending request as `exec.approval.list`/`get` show it (the `exec.approval.requested` payload).
 * This gateway sends `ApprovalReason`s; a client reading any gateway's gets `ReceivedApprovalReason`s.
 */
export interface ExecApprovalView<Reason = ApprovalReason> {
  id: string;
  agentId: string;
  sessionKey: string;
  command: string;
  cwd: string;
  host?: string;
  analysis: unknown;
  reasons: Reason[];
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
  risk?: ExecRiskView<Reason>;
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
  reasons?: ApprovalReason[];
}

export interface ExecApprovalGetResult extends ExecApprovalView {
  status: 'pending' | 'resolved';
  resolution?: { decision: string; resolvedBy: string; reason?: string; resolvedAtMs: number };
}

export const execMethods = {
  'exec.approval.request': method<ExecApprovalRequestResult>()({
    scope: 'operator.approvals',
    params: () =>
      z
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
    params: () => z.object({}).strict(),
  }),
  'exec.approval.get': method<ExecApprovalGetResult>()({
    scope: 'operator.approvals',
    params: () => z.object({ id: z.string().min(1) }).strict(),
  }),
  'exec.approval.resolve': method<{ ok: true }>()({
    scope: 'operator.approvals',
    params: () =>
      z
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
