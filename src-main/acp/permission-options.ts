import type * as acp from '@agentclientprotocol/sdk';
import type { ApprovalDecisionName } from '../protocol/index.js';

/**
 * Hearth's approval decisions as ACP permission options. The option ids are Hearth's own
 * decision names, so an answer maps back without a table; only decisions the request allows
 * are offered (an ask that may not be remembered has no "always").
 */
export function permissionOptionsFor(allowed: readonly ApprovalDecisionName[]): acp.PermissionOption[] {
  const options: acp.PermissionOption[] = [];
  if (allowed.includes('allow-once')) options.push({ optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' });
  if (allowed.includes('allow-always')) {
    options.push({ optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' });
  }
  options.push({ optionId: 'deny', name: 'Reject', kind: 'reject_once' });
  return options;
}

/**
 * The Hearth decision an editor's answer stands for. A cancelled request, or an option id Hearth
 * did not offer, is a deny: nobody said yes.
 */
export function decisionOf(
  outcome: acp.RequestPermissionOutcome,
  offered: readonly acp.PermissionOption[],
): ApprovalDecisionName {
  if (outcome.outcome !== 'selected') return 'deny';
  const option = offered.find((o) => o.optionId === outcome.optionId);
  if (!option) return 'deny';
  switch (option.kind) {
    case 'allow_once':
      return 'allow-once';
    case 'allow_always':
      return 'allow-always';
    default:
      return 'deny';
  }
}
