import { type AlwaysScope, type ApprovalAnswer, type ApprovalDecision, approvalDecisions } from './approval-types.js';

export type ApproveCommand =
  | { ok: true; id: string; decision: ApprovalDecision; remember?: 'session' }
  | { ok: false; error: string };

/**
 * Parses `/approve <id> allow-once|allow-session|allow-always|deny` typed on any chat channel
 * (`allow-session`: allow once and remember it for the session).
 * Returns undefined when the text is not an /approve command at all, so the
 * chat layer passes it on to the agent.
 */
export function parseApproveCommand(text: string): ApproveCommand | undefined {
  const trimmed = text.trim();
  if (!/^\/approve(\s|$)/i.test(trimmed)) return undefined;
  const [, id, decision, ...extra] = trimmed.split(/\s+/);
  const usage = 'usage: /approve <id> allow-once|allow-session|allow-always|deny';
  if (!id) return { ok: false, error: `missing approval id (${usage})` };
  if (!decision) return { ok: false, error: `missing decision for ${id} (${usage})` };
  const normalised = decision.toLowerCase();
  if (extra.length === 0 && normalised === 'allow-session')
    return { ok: true, id, decision: 'allow-once', remember: 'session' };
  if (!approvalDecisions.includes(normalised as ApprovalDecision))
    return { ok: false, error: `unknown decision "${decision}" (${usage})` };
  if (extra.length > 0) return { ok: false, error: `unexpected text after the decision (${usage})` };
  return { ok: true, id, decision: normalised as ApprovalDecision };
}

/** What a chat command answers instead of a model turn (`chat.send` result `command`). */
export interface ApproveCommandReply {
  name: 'approve';
  ok: boolean;
  reply: string;
}

export interface ApproveCommandDeps {
  resolve(
    id: string,
    decision: ApprovalDecision,
    resolvedBy: string,
    reason?: string,
    allowAlwaysScope?: AlwaysScope,
    more?: Pick<ApprovalAnswer, 'remember'>,
  ): void;
}

/**
 * `/approve <id> allow-once|allow-always|deny` from any chat surface resolves an approval without
 * a model turn. Undefined when the text is not the command; a reply naming the problem when the
 * sender lacks `operator.approvals`, the command is malformed, or the approval is unknown.
 */
export function answerApproveCommand(
  text: string,
  sender: { clientId: string; mayResolveApprovals: boolean },
  deps: ApproveCommandDeps,
): ApproveCommandReply | undefined {
  const parsed = parseApproveCommand(text);
  if (!parsed) return undefined;
  if (!parsed.ok) return { name: 'approve', ok: false, reply: parsed.error };
  if (!sender.mayResolveApprovals) {
    return {
      name: 'approve',
      ok: false,
      reply: 'you cannot resolve approvals from here (missing scope: operator.approvals)',
    };
  }
  try {
    if (parsed.remember)
      deps.resolve(parsed.id, parsed.decision, `chat:${sender.clientId}`, undefined, undefined, {
        remember: parsed.remember,
      });
    else deps.resolve(parsed.id, parsed.decision, `chat:${sender.clientId}`);
    const said = parsed.remember ? 'allow-session' : parsed.decision;
    return { name: 'approve', ok: true, reply: `${said} for approval ${parsed.id}` };
  } catch (error) {
    return { name: 'approve', ok: false, reply: error instanceof Error ? error.message : String(error) };
  }
}
