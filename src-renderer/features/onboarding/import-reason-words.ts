import { type ImportReasonCode, isImportReasonCode } from '../../../src-main/protocol/import-reason-codes.js';
import type { ImportItemView } from '../../../src-main/protocol/methods/import.js';
import type { MessageKey } from '../../i18n/en.js';
import type { Translate } from '../../i18n/translate.js';

/**
 * The words of an import reason (src-main/protocol's ImportReasonCode) are `import.why.<code>`. The
 * return type makes every such key a MessageKey, so a code added there without words in en.ts does
 * not build, and a Chinese import plan never shows an English reason.
 */
export function importReasonKey(code: ImportReasonCode): MessageKey {
  const key: `import.why.${ImportReasonCode}` = `import.why.${code}`;
  return key;
}

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
    return t(importReasonKey(item.reasonCode), item.reasonParams ?? {});
  return item.reason ?? item.reasonCode;
}
