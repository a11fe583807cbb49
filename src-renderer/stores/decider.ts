import type { MessageKey } from '../i18n/en.js';

/** Hearth's own client ids, as a person would name them. */
const clientNames: Record<string, string> = {
  'hearth-control-ui': 'Control UI',
  'hearth-desktop': 'Hearth desktop',
  'hearth-cli': 'the CLI',
};

/** `hearth-control-ui(3f2a…)` → `Control UI`: the connection id in brackets means nothing to a reader. */
function clientName(raw: string): string {
  const bare = raw.replace(/\([^()]*\)$/, '').trim();
  return clientNames[bare] ?? bare;
}

/**
 * Who settled an approval, in words. The gateway's `resolvedBy` is `operator:<client>(<connId>)`,
 * `chat:<channel>`, `prompter:<name>`, `smart-judge`, `expiry`, `cancelled` or `no-approver`
 * (exec/approval-types.ts).
 */
export function describeDecider(resolvedBy: string): { key: MessageKey; name?: string } {
  const [kind, ...rest] = resolvedBy.split(':');
  const name = rest.join(':');
  switch (kind) {
    case 'operator':
      return { key: 'decider.operator', name: clientName(name) || 'operator' };
    case 'chat':
      return { key: 'decider.chat', name: clientName(name) };
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
