import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { upgradeEventText } from './upgrade-words.js';

/**
 * What the last start did to the home's files (`status.upgrades.lastEvent`: a migration, a failed
 * one that was undone, a restore after two crashed starts), told once: dismissing it remembers the
 * event on this device, and Settings → About keeps the whole report.
 */
export function UpgradeNotice() {
  const t = useT();
  const { about, ui } = useStores();
  const notice = useDomain('about', (s) => s.notice);
  if (!notice) return null;
  const failed = notice.kind !== 'migrated';
  const text = upgradeEventText(notice, t);
  return (
    <div className={failed ? 'upgrade-notice failed' : 'upgrade-notice'} role="note" data-testid="upgrade-notice">
      <div className="stack" style={{ gap: 4 }}>
        <strong>{t(`upgrade.${notice.kind}`)}</strong>
        <span>{text}</span>
        {/* The sentence usually names the backup already; said again only when it does not. */}
        {notice.backups && notice.backups.length > 0 && !notice.backups.every((b) => text.includes(b)) && (
          <small className="muted">{t('upgrade.backups', { list: notice.backups.join(', ') })}</small>
        )}
      </div>
      <div className="row">
        <button
          type="button"
          className="button small ghost"
          onClick={() => {
            ui.getState().navigate('settings');
            about.getState().dismissNotice();
          }}
        >
          {t('upgrade.details')}
        </button>
        <button type="button" className="button small primary" onClick={() => about.getState().dismissNotice()}>
          {t('upgrade.dismiss')}
        </button>
      </div>
    </div>
  );
}
