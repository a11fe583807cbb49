import { type ApprovalReasonCode, isApprovalReasonCode } from '../../../src-main/protocol/methods/exec.js';
import type { MessageKey } from '../../i18n/en.js';
import type { Translate } from '../../i18n/translate.js';
import type { AlwaysScope, ApprovalReason, PendingApproval } from '../../stores/approvals-store.js';

/**
 * How an approval is put into words on every surface that asks (the inline card, the Approvals
 * view): the "always" scopes and the reasons. The gateway sends each reason as a stable code and an
 * English detail; the code is what gets translated, so a Chinese card does not show English reasons.
 */

export const scopeLabel: Record<AlwaysScope, MessageKey> = {
  binary: 'approvals.scope.binary',
  exact: 'approvals.scope.exact',
  folder: 'approvals.scope.folder',
  tool: 'approvals.scope.tool',
  server: 'approvals.scope.server',
};

/** One "always" choice as a person reads it: the folder, tool or server it is limited to filled in. */
export function scopeText(t: Translate, entry: PendingApproval, scope: AlwaysScope): string {
  return t(scopeLabel[scope], {
    folder: entry.alwaysFolder ?? entry.cwd ?? '',
    tool: entry.tool ?? '',
    server: entry.server ?? '',
  });
}

/**
 * Every code main puts on a reason (src-main/protocol's ApprovalReasonCode: the exec policy, the
 * analysis findings, the hard floor, the risk grade, MCP, file and browser tools): a code added
 * there without words here does not build, so a Chinese card never shows an English reason.
 */
export const reasonKey: Record<ApprovalReasonCode, MessageKey> = {
  privilege: 'approvals.reason.privilege',
  irreversible: 'approvals.reason.irreversible',
  'runs-download': 'approvals.reason.runs-download',
  'writes-outside': 'approvals.reason.writes-outside',
  'write-outside-workspace': 'approvals.reason.writes-outside',
  'moves-files': 'approvals.reason.moves-files',
  deletes: 'approvals.reason.deletes',
  'recursive-permissions': 'approvals.reason.recursive-permissions',
  'rewrites-remote': 'approvals.reason.rewrites-remote',
  'discards-work': 'approvals.reason.discards-work',
  publishes: 'approvals.reason.publishes',
  'runs-code': 'approvals.reason.runs-code',
  network: 'approvals.reason.network',
  'writes-files': 'approvals.reason.writes-files',
  'allowlist-miss': 'approvals.reason.allowlist-miss',
  'arguments-miss': 'approvals.reason.arguments-miss',
  'path-spelled': 'approvals.reason.path-spelled',
  'dynamic-command': 'approvals.reason.dynamic-command',
  obfuscation: 'approvals.reason.obfuscation',
  'env-prefix': 'approvals.reason.env-prefix',
  'risky-arguments': 'approvals.reason.risky-arguments',
  'ask-always': 'approvals.reason.ask-always',
  'security-full': 'approvals.reason.security-full',
  'shell-payload': 'approvals.reason.shell-payload',
  'parse-error': 'approvals.reason.parse-error',
  'sensitive-read': 'approvals.reason.sensitive-read',
  'floor-unknown': 'approvals.reason.floor-unknown',
  'mcp-write': 'approvals.reason.mcp-write',
  'security-deny': 'approvals.reason.security-deny',
  'ask-off': 'approvals.reason.ask-off',
  'no-command': 'approvals.reason.no-command',
  'safe-builtin': 'approvals.reason.safe-builtin',
  allowlisted: 'approvals.reason.allowlisted',
  'shell-stdin': 'approvals.reason.shell-stdin',
  'interpreter-stdin': 'approvals.reason.interpreter-stdin',
  'interpreter-payload': 'approvals.reason.interpreter-payload',
  'nesting-too-deep': 'approvals.reason.nesting-too-deep',
  'function-definition': 'approvals.reason.function-definition',
  'sensitive-assignment': 'approvals.reason.sensitive-assignment',
  'cwd-changed': 'approvals.reason.cwd-changed',
  'recursive-delete-root': 'approvals.reason.recursive-delete-root',
  'recursive-chmod-root': 'approvals.reason.recursive-chmod-root',
  'move-root': 'approvals.reason.move-root',
  'format-disk': 'approvals.reason.format-disk',
  'overwrite-disk': 'approvals.reason.overwrite-disk',
  'fork-bomb': 'approvals.reason.fork-bomb',
  'wire-request': 'approvals.reason.wire-request',
  'sandbox-relaxed': 'approvals.reason.sandbox-relaxed',
  'approval-denied': 'approvals.reason.approval-denied',
  'mcp-destructive': 'approvals.reason.mcp-destructive',
  'cli-permission': 'approvals.reason.cli-permission',
  'outside-workspace': 'approvals.reason.outside-workspace',
  'browser-action': 'approvals.reason.browser-action',
};

/**
 * A reason in the person's language. A code this renderer does not know (a newer gateway, a
 * plugin's own) shows the gateway's text rather than nothing.
 */
export function reasonText(t: Translate, reason: ApprovalReason): string {
  return isApprovalReasonCode(reason.code) ? t(reasonKey[reason.code]) : reason.detail;
}

/**
 * The reasons a card lists, each said once: two codes may translate to the same sentence
 * (`rm` deletes, `find -delete` deletes). Keyed by that sentence, with the gateway's details kept
 * for the tooltip, which names the program.
 */
export function reasonLines(t: Translate, reasons: readonly ApprovalReason[]): { text: string; details: string }[] {
  const lines = new Map<string, string[]>();
  for (const reason of reasons) {
    const text = reasonText(t, reason);
    const details = lines.get(text) ?? [];
    if (!details.includes(reason.detail)) details.push(reason.detail);
    lines.set(text, details);
  }
  return [...lines].map(([text, details]) => ({ text, details: details.join('; ') }));
}
