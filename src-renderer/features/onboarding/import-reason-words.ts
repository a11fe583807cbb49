import { type ImportReasonCode, isImportReasonCode } from '../../../src-main/protocol/import-reason-codes.js';
import type { ImportItemView } from '../../../src-main/protocol/methods/import.js';
import type { MessageKey } from '../../i18n/en.js';
import type { Translate } from '../../i18n/translate.js';

/**
 * Every reason the import gives (src-main/protocol's ImportReasonCode): a code added there without
 * words here does not build, so a Chinese import plan never shows an English reason.
 */
export const importReasonKey: Record<ImportReasonCode, MessageKey> = {
  'unreadable-file': 'import.why.unreadable-file',
  'invalid-json': 'import.why.invalid-json',
  'invalid-yaml-config': 'import.why.invalid-yaml-config',
  'unreadable-config': 'import.why.unreadable-config',
  'invalid-json-config': 'import.why.invalid-json-config',
  'unreadable-session-index': 'import.why.unreadable-session-index',
  'invalid-json-session-index': 'import.why.invalid-json-session-index',
  vanished: 'import.why.vanished',
  'replaces-starter': 'import.why.replaces-starter',
  'unreadable-lines': 'import.why.unreadable-lines',
  'unmatched-events': 'import.why.unmatched-events',
  'unreadable-lines-and-unmatched-events': 'import.why.unreadable-lines-and-unmatched-events',
  'key-to-secret-store': 'import.why.key-to-secret-store',
  'key-to-secret-store-unknown-provider': 'import.why.key-to-secret-store-unknown-provider',
  'switched-off': 'import.why.switched-off',
  'same-key-stored': 'import.why.same-key-stored',
  'workspace-file-differs': 'import.why.workspace-file-differs',
  'provider-differs': 'import.why.provider-differs',
  'profile-exists': 'import.why.profile-exists',
  'default-model-differs': 'import.why.default-model-differs',
  'agent-differs': 'import.why.agent-differs',
  'cron-job-differs': 'import.why.cron-job-differs',
  'no-messages': 'import.why.no-messages',
  'unknown-agent': 'import.why.unknown-agent',
  'one-shot-passed': 'import.why.one-shot-passed',
  'schedule-not-understood': 'import.why.schedule-not-understood',
  'cron-no-message': 'import.why.cron-no-message',
  'invalid-agent-id': 'import.why.invalid-agent-id',
  'invalid-agent-id-sessions': 'import.why.invalid-agent-id-sessions',
  'model-unresolved': 'import.why.model-unresolved',
  'custom-provider-no-base-url': 'import.why.custom-provider-no-base-url',
  'custom-provider-incomplete': 'import.why.custom-provider-incomplete',
  'not-a-provider-key': 'import.why.not-a-provider-key',
  'allowlist-not-comparable': 'import.why.allowlist-not-comparable',
  'sqlite-sessions': 'import.why.sqlite-sessions',
  'no-adapter': 'import.why.no-adapter',
  'invalid-provider': 'import.why.invalid-provider',
  'key-from-environment': 'import.why.key-from-environment',
  'oauth-not-moved': 'import.why.oauth-not-moved',
  'credential-without-key': 'import.why.credential-without-key',
  'invalid-binding': 'import.why.invalid-binding',
  'channel-login-not-moved': 'import.why.channel-login-not-moved',
  'channel-logins-folder': 'import.why.channel-logins-folder',
  'apply-failed': 'import.why.apply-failed',
};

/**
 * An item's reason in the person's language, its params filled in. A code this renderer has no
 * words for (a newer or older gateway) shows the gateway's English `reason` rather than nothing;
 * an item with no reason at all has none to show.
 */
export function importReasonText(
  t: Translate,
  item: Pick<ImportItemView, 'reason' | 'reasonCode' | 'reasonParams'>,
): string | undefined {
  if (item.reasonCode !== undefined && isImportReasonCode(item.reasonCode))
    return t(importReasonKey[item.reasonCode], item.reasonParams ?? {});
  return item.reason ?? item.reasonCode;
}
