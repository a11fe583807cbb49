import type { UpgradesStatus } from '../../../src-main/protocol/methods/gateway.js';
import type { Translate } from '../../i18n/translate.js';

type UpgradeEvent = NonNullable<UpgradesStatus['lastEvent']>;

/**
 * The upgrade event's sentence in the person's language, from its parts. An event written before
 * the parts were recorded (or a kind this build does not know) has only the server's English
 * sentence, which is shown as it is rather than guessed at.
 */
export function upgradeEventText(event: UpgradeEvent, t: Translate): string {
  const { message } = event;
  const backup = event.backups?.join(', ') ?? '';
  switch (event.kind) {
    case 'migrated':
      return event.files && backup ? t('upgrade.body.migrated', { files: event.files.join(', '), backup }) : message;
    case 'migration-failed':
      return event.files && backup
        ? t('upgrade.body.migration-failed', { files: event.files.join(', '), error: event.error ?? '', backup })
        : message;
    case 'crash-restored':
      return event.attempts !== undefined && backup
        ? t('upgrade.body.crash-restored', { attempts: event.attempts, backup })
        : message;
    case 'crash-nothing-to-restore':
      return event.attempts !== undefined
        ? t('upgrade.body.crash-nothing-to-restore', { attempts: event.attempts })
        : message;
    default:
      // A kind from a newer gateway: its own sentence.
      return message;
  }
}
