import type { AnalysisSummary, Reason } from './analysis-types.js';
import type { AllowlistEntry } from './exec-policy.js';

export type ApprovalDecision = 'allow-once' | 'allow-always' | 'deny';
export const approvalDecisions: readonly ApprovalDecision[] = ['allow-once', 'allow-always', 'deny'];

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
}

/** Who settled a request: `operator:<client>`, `chat:<channel>`, `prompter:<name>`, `smart-judge`, `expiry`, `cancelled`, `no-approver`. */
export interface ApprovalResolution {
  id: string;
  decision: ApprovalDecision;
  resolvedBy: string;
  /** Why (the judge's verdict, the fallback applied, the user's note). */
  reason?: string;
  /** With allow-always: any use of the binary (default), or these exact arguments only. */
  allowAlwaysScope?: 'binary' | 'exact';
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
  prompt(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | undefined>;
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
}

/** What the exec host depends on: "may this run?", answered by whoever answers first. */
export interface ApprovalGate {
  request(input: ApprovalInput, signal?: AbortSignal): Promise<ApprovalResolution>;
}

/**
 * A pending request as clients see it (`exec.approval.requested`, `exec.approval.list`/`get`): the
 * request itself plus the PROTOCOL.md §7 `request` block, for clients written against OpenClaw.
 */
export function approvalView(request: ApprovalRequest) {
  return {
    ...request,
    request: {
      command: request.command,
      cwd: request.cwd,
      host: request.host ?? 'gateway',
      allowedDecisions: request.allowedDecisions,
    },
  };
}
