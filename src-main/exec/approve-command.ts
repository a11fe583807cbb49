import { type ApprovalDecision, approvalDecisions } from './approval-types.js';

export type ApproveCommand = { ok: true; id: string; decision: ApprovalDecision } | { ok: false; error: string };

/**
 * Parses `/approve <id> allow-once|allow-always|deny` typed on any chat channel.
 * Returns undefined when the text is not an /approve command at all, so the
 * chat layer passes it on to the agent.
 */
export function parseApproveCommand(text: string): ApproveCommand | undefined {
  const trimmed = text.trim();
  if (!/^\/approve(\s|$)/i.test(trimmed)) return undefined;
  const [, id, decision, ...extra] = trimmed.split(/\s+/);
  const usage = 'usage: /approve <id> allow-once|allow-always|deny';
  if (!id) return { ok: false, error: `missing approval id (${usage})` };
  if (!decision) return { ok: false, error: `missing decision for ${id} (${usage})` };
  const normalised = decision.toLowerCase();
  if (!approvalDecisions.includes(normalised as ApprovalDecision))
    return { ok: false, error: `unknown decision "${decision}" (${usage})` };
  if (extra.length > 0) return { ok: false, error: `unexpected text after the decision (${usage})` };
  return { ok: true, id, decision: normalised as ApprovalDecision };
}
