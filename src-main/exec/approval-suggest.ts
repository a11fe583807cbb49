import { escapeRegExp } from './allow-always.js';
import type { ApprovalHistoryEntry } from './approval-history.js';
import type { AllowlistEntry } from './exec-policy.js';

export interface AllowlistSuggestion {
  entry: AllowlistEntry;
  /** How often a person allowed commands this entry would have covered. */
  approvals: number;
  example: string;
}

/**
 * Decisions that say what a *person* thinks (not expiry, cancellation or the fallback), about a
 * command (not an MCP or file tool), counted once (not again when a session grant or rule answered).
 */
const fromPeople = (entry: ApprovalHistoryEntry) =>
  !['expiry', 'cancelled', 'no-approver', 'session'].includes(entry.resolvedBy) &&
  !entry.resolvedBy.startsWith('rule:') &&
  entry.tool === undefined;

/**
 * Mines the approval history for allowlist entries: a program a person allowed
 * at least `minApprovals` times and never denied becomes `{pattern: name}`; one
 * with denials too is narrowed to the subcommands that were only ever allowed.
 */
export function suggestAllowlist(
  history: readonly ApprovalHistoryEntry[],
  options: { minApprovals?: number } = {},
): AllowlistSuggestion[] {
  const minApprovals = options.minApprovals ?? 3;
  interface Tally {
    allowed: number;
    denied: number;
    example: string;
    subcommands: Map<string, { allowed: number; denied: number; example: string }>;
  }
  const byProgram = new Map<string, Tally>();
  for (const decision of history.filter(fromPeople)) {
    const allowed = decision.decision !== 'deny';
    for (const program of decision.programs) {
      const tally = byProgram.get(program.name) ?? {
        allowed: 0,
        denied: 0,
        example: decision.command,
        subcommands: new Map(),
      };
      byProgram.set(program.name, tally);
      allowed ? tally.allowed++ : tally.denied++;
      const sub = program.args.find((arg) => !arg.startsWith('-')) ?? '';
      const subTally = tally.subcommands.get(sub) ?? { allowed: 0, denied: 0, example: decision.command };
      tally.subcommands.set(sub, subTally);
      allowed ? subTally.allowed++ : subTally.denied++;
    }
  }
  const suggestions: AllowlistSuggestion[] = [];
  for (const [name, tally] of byProgram) {
    if (tally.denied === 0 && tally.allowed >= minApprovals) {
      suggestions.push({ entry: { pattern: name }, approvals: tally.allowed, example: tally.example });
      continue;
    }
    for (const [sub, subTally] of tally.subcommands) {
      if (sub === '' || subTally.denied > 0 || subTally.allowed < minApprovals) continue;
      suggestions.push({
        entry: { pattern: name, argPattern: `^${escapeRegExp(sub)}( |$)` },
        approvals: subTally.allowed,
        example: subTally.example,
      });
    }
  }
  return suggestions.sort((a, b) => b.approvals - a.approvals || a.entry.pattern.localeCompare(b.entry.pattern));
}
