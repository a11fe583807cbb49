import type { ExecApprovalView } from '../protocol/index.js';
import type { AnalysisSummary, Reason } from './analysis-types.js';
import type { AllowlistEntry } from './exec-policy.js';
import type { PermissionStore } from './permission-store.js';
import type { RiskGrade } from './risk-grade.js';

export type ApprovalDecision = 'allow-once' | 'allow-always' | 'deny';
export const approvalDecisions: readonly ApprovalDecision[] = ['allow-once', 'allow-always', 'deny'];

/**
 * What "allow always" is keyed on: `binary` / `exact` / `folder` for exec (the allowlist entry: any
 * use of the program, these exact arguments, or these exact arguments only when run in the
 * request's folder or below it), `tool` / `server` / `exact` for MCP and file tools (this tool,
 * every tool of this server, these exact arguments or this path).
 */
export type AlwaysScope = 'binary' | 'exact' | 'folder' | 'tool' | 'server';
export const alwaysScopes: readonly AlwaysScope[] = ['binary', 'exact', 'folder', 'tool', 'server'];

/**
 * What a request is about, for everything a decision can be remembered on. `access` is how much
 * the tool may change: `read` requests are remembered for the session whenever they are allowed
 * (one click per session), `dangerous` ones are never remembered (they ask every time).
 */
export interface ApprovalSubject {
  kind: 'exec' | 'mcp' | 'file' | 'network';
  /** `exec`, the MCP agent tool name `<server>__<tool>`, the file tool's name (`write`, `read`…). */
  tool: string;
  /** MCP: the server's name. */
  server?: string;
  /** The exact arguments: the command line, the MCP input as JSON, the file's path. */
  args: string;
  access: 'read' | 'write' | 'dangerous';
}

/** What a human (or the smart judge) is asked about; the payload of `exec.approval.requested`. */
export interface ApprovalRequest {
  id: string;
  agentId: string;
  sessionKey: string;
  command: string;
  analysis: AnalysisSummary;
  /** Why the policy asked (allowlist misses, risky options…). */
  reasons: Reason[];
  cwd: string;
  host?: string;
  createdAtMs: number;
  expiresAtMs: number;
  allowedDecisions: ApprovalDecision[];
  /** The allowlist entries "Always allow" would add, shown to the person before they choose. */
  allowAlways?: AllowlistEntry[];
  /** The same, pinned to these exact arguments (`allowAlwaysScope: "exact"`). */
  allowAlwaysExact?: AllowlistEntry[];
  /** The exact arguments, only inside the request's folder (`allowAlwaysScope: "folder"`). */
  allowAlwaysFolder?: AllowlistEntry[];
  /** What the request is about (tool, server, arguments, access). */
  subject?: ApprovalSubject;
  /** "Allow for this session" may be answered (`remember: "session"`); not on person-only or dangerous requests. */
  allowSession?: boolean;
  /** The scopes "allow always" may take here; the first is the default. */
  alwaysScopes?: AlwaysScope[];
  /** The answer the surfaces should put first: `session` for read-only requests, else `once`. */
  suggested?: 'once' | 'session';
  /** How many identical tool calls wait on this one request (batched: one answer settles them all). */
  waiting?: number;
  /** Exec: how much harm the command can do, why, and what it touches (risk-grade.ts). */
  risk?: RiskGrade;
}

/** Who settled a request: `operator:<client>`, `chat:<channel>`, `prompter:<name>`, `smart-judge`, `expiry`, `cancelled`, `no-approver`. */
export interface ApprovalResolution {
  id: string;
  decision: ApprovalDecision;
  resolvedBy: string;
  /** Why (the judge's verdict, the fallback applied, the user's note). */
  reason?: string;
  /** With allow-always: what the rule is keyed on (exec: binary (default), exact or folder; tools: tool, server, exact). */
  allowAlwaysScope?: AlwaysScope;
  /** With allow-once: remembered for the rest of the session (asked for, or a read-only request). */
  remember?: 'session';
  /** With allow-always: the rule stops applying at this time (epoch ms). */
  untilMs?: number;
  /** The rule an allow-always answer saved, or the rule / session grant that answered without asking. */
  ruleId?: string;
  /** `resolvedBy: hard-floor`: the floor findings that refused the request before it existed (no id). */
  floor?: Reason[];
  resolvedAtMs: number;
}

/**
 * A surface that can ask a person directly (the desktop app's native dialog).
 * Called for every request; answer `undefined` to abstain. The signal aborts when
 * another surface answered first, so the dialog can close itself.
 */
export interface ApprovalPrompter {
  readonly name: string;
  /**
   * Whether this surface can answer `request` at all (a channel: only runs that came from it).
   * A prompter with `covers` counts as an approver only for the requests it covers; without it,
   * for every request.
   */
  covers?(request: Pick<ApprovalRequest, 'agentId' | 'sessionKey'>): boolean;
  /** A decision, or an answer with its choices (for this session, always with a scope or a date). */
  prompt(
    request: ApprovalRequest,
    signal: AbortSignal,
  ): Promise<ApprovalDecision | Omit<ApprovalAnswer, 'resolvedBy'> | undefined>;
}

export interface ApprovalInput {
  agentId: string;
  sessionKey: string;
  command: string;
  analysis: AnalysisSummary;
  reasons: Reason[];
  cwd: string;
  host?: string;
  /** Keys a PTY run types into the program (screened with the command). */
  stdin?: string;
  /** What happens when nobody answers in time (or nobody can answer). */
  askFallback: 'deny' | 'allowlist' | 'full';
  /** For askFallback `allowlist`: whether every command is allowlisted (ask was `always`). */
  allowlistSatisfied: boolean;
  /** Let the smart judge triage first (config `approvals.mode: smart`). */
  smart?: boolean;
  timeoutMs?: number;
  allowedDecisions?: ApprovalDecision[];
  allowAlways?: AllowlistEntry[];
  allowAlwaysExact?: AllowlistEntry[];
  allowAlwaysFolder?: AllowlistEntry[];
  /** What the request is about; without it, an exec command (`tool: "exec"`, `access: "dangerous"`). */
  subject?: ApprovalSubject;
  /** The scopes "allow always" may take (default: exec `binary`, `exact`; MCP `tool`, `server`, `exact`; file `exact`). */
  alwaysScopes?: AlwaysScope[];
}

/** An answer from a person as every surface hands it to the service. */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  resolvedBy: string;
  reason?: string;
  /** allow-once + `session`: "allow for this session". */
  remember?: 'session';
  allowAlwaysScope?: AlwaysScope;
  /** allow-always only until then (epoch ms, in the future). */
  untilMs?: number;
}

/** What the exec host depends on: "may this run?", answered by whoever answers first. */
export interface ApprovalGate {
  request(input: ApprovalInput, signal?: AbortSignal): Promise<ApprovalResolution>;
  /** The "allow always" rules the gate saves and matches itself (MCP's list is a view of them). */
  readonly permissions?: PermissionStore | undefined;
}

/**
 * A pending request as clients see it (`exec.approval.requested`, `exec.approval.list`/`get`): the
 * request itself plus the PROTOCOL.md §7 `request` block, for clients written against OpenClaw.
 */
export function approvalView(request: ApprovalRequest): ExecApprovalView {
  return {
    ...request,
    request: {
      command: request.command,
      cwd: request.cwd,
      host: request.host ?? 'gateway',
      // OpenClaw's three decisions only; "allow for this session" is `allowSession` beside them.
      allowedDecisions: request.allowedDecisions,
    },
  };
}
