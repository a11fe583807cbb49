import type { MessageKey } from '../i18n/en.js';

/**
 * Who settled an approval, in words. The gateway's `resolvedBy` is `operator:<client>`,
 * `chat:<channel>`, `prompter:<name>`, `smart-judge`, `expiry`, `cancelled` or `no-approver`
 * (exec/approval-types.ts).
 */
export function describeDecider(resolvedBy: string): { key: MessageKey; name?: string } {
  const [kind, ...rest] = resolvedBy.split(':');
  const name = rest.join(':');
  switch (kind) {
    case 'operator':
      return { key: 'decider.operator', name: name || 'operator' };
    case 'chat':
      return { key: 'decider.chat', name };
    case 'prompter':
      return { key: 'decider.prompter', name };
    case 'smart-judge':
      return { key: 'decider.smart' };
    case 'expiry':
      return { key: 'decider.expiry' };
    case 'cancelled':
      return { key: 'decider.cancelled' };
    case 'no-approver':
      return { key: 'decider.none' };
    default:
      return { key: 'decider.operator', name: resolvedBy || 'unknown' };
  }
}
