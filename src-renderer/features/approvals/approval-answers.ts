import type { AlwaysScope, Answer, PendingApproval } from '../../stores/approvals-store.js';

/**
 * What a person may answer to one request, by its risk, for every surface that asks (the inline
 * card in the chat, the Approvals view): which answer comes first, which button has the focus,
 * which "always" rules are offered and which single keys answer. One place, so a destructive
 * command is never one keystroke from running on any surface.
 */
export interface AnswerPlan {
  destructive: boolean;
  /** The allow answer put first: "for this chat" for read-only requests, else once; none if allowing is not offered. */
  primary?: 'allow-once' | 'allow-session';
  /** "Allow for this chat" is offered beside the primary answer. */
  session: boolean;
  /** The "always" rules offered, narrowest last; empty when "always" is not offered. */
  alwaysScopes: AlwaysScope[];
  deny: boolean;
  /** The button that has the focus when the card appears: Deny for a destructive command. */
  focus: 'allow' | 'deny';
}

/** Scopes that never cover more than these exact arguments (the only "always" a destructive command gets). */
const narrow = new Set<AlwaysScope>(['exact', 'folder']);

export function isDestructive(entry: Pick<PendingApproval, 'risk'>): boolean {
  return entry.risk?.level === 'destructive';
}

export function answerPlan(entry: PendingApproval): AnswerPlan {
  const destructive = isDestructive(entry);
  const canOnce = entry.allowedDecisions.includes('allow-once');
  const sessionFirst = entry.suggested === 'session' && entry.allowSession;
  const canAlways = entry.allowedDecisions.includes('allow-always');
  // The gateway already narrows a destructive request's scopes; this holds even against one that does not.
  // A gateway that names no scopes (older ones) keys a command's "always" on the binary, or on these
  // exact arguments where it says what that rule would add.
  const offered: AlwaysScope[] =
    entry.kind === undefined && entry.alwaysScopes.length === 0
      ? entry.allowAlwaysExactEntry
        ? ['binary', 'exact']
        : ['binary']
      : entry.alwaysScopes;
  const alwaysScopes = canAlways ? offered.filter((scope) => !destructive || narrow.has(scope)) : [];
  return {
    destructive,
    ...(sessionFirst ? { primary: 'allow-session' as const } : canOnce ? { primary: 'allow-once' as const } : {}),
    session: entry.allowSession && !sessionFirst,
    alwaysScopes,
    deny: entry.allowedDecisions.includes('deny'),
    focus: destructive ? 'deny' : 'allow',
  };
}

/** What a single key does: an answer, opening the "always" choice, or nothing. */
export type KeyAction = { answer: Answer; scope?: AlwaysScope } | { openAlways: true } | undefined;

/**
 * A / F / S / D on a request. A destructive request only takes D: approving it takes a click on a
 * button the person has read (Enter on the focused Deny button denies).
 */
export function keyAction(entry: PendingApproval, key: string): KeyAction {
  const plan = answerPlan(entry);
  const k = key.toLowerCase();
  if (k === 'd') return plan.deny ? { answer: 'deny' } : undefined;
  if (plan.destructive) return undefined;
  if (k === 'a') return plan.primary ? { answer: plan.primary } : undefined;
  if (k === 'f') return plan.session || plan.primary === 'allow-session' ? { answer: 'allow-session' } : undefined;
  if (k === 's') {
    if (plan.alwaysScopes.length === 0) return undefined;
    // One rule on offer: S answers it; several: S opens the choice (a tool's default is its first scope).
    return plan.alwaysScopes.length === 1 || entry.kind !== undefined
      ? { answer: 'allow-always', scope: plan.alwaysScopes[0] }
      : { openAlways: true };
  }
  return undefined;
}
