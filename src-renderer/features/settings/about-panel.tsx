import { useEffect } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { formatTime } from '../../ui/use-now.js';
import { upgradeEventText } from './upgrade-words.js';

// The project names no public web address yet (package.json has no homepage), so the links are
// the guides shipped with the source and the command that prints the full report.
const guides = [
  { key: 'about.docs', file: 'docs/DESKTOP.md' },
  { key: 'about.upgradesDoc', file: 'docs/UPGRADES.md' },
] as const;

/** What is running and where its data is: the gateway's own `status` (version, home, upgrade report). */
export function AboutPanel() {
  const t = useT();
  const { about } = useStores();
  useEffect(() => {
    void about.getState().refresh();
  }, [about]);
  const version = useDomain('about', (s) => s.runtimeVersion);
  const protocol = useDomain('about', (s) => s.protocol);
  const home = useDomain('about', (s) => s.home);
  const upgrades = useDomain('about', (s) => s.upgrades);
  const error = useDomain('about', (s) => s.error);
  const configFormat = upgrades?.formats.find((f) => f.format === 'config');
  const last = upgrades?.lastEvent;
  return (
    <div className="stack" data-testid="about-panel">
      <section className="card stack">
        <h2>{t('about.title')}</h2>
        {error && (
          <p className="notice" role="alert">
            {t('about.unavailable', { error })}
          </p>
        )}
        <dl className="about-facts">
          <div className="about-fact">
            <dt>{t('about.version')}</dt>
            <dd>
              <code>{version ?? '…'}</code>
            </dd>
          </div>
          <div className="about-fact">
            <dt>{t('about.protocol')}</dt>
            <dd>
              <code>{protocol ?? '…'}</code>
            </dd>
          </div>
          <div className="about-fact">
            <dt>{t('about.home')}</dt>
            <dd>
              <code>{home ?? '…'}</code>
            </dd>
          </div>
          {configFormat && (
            <div className="about-fact">
              <dt>{t('about.configVersion')}</dt>
              <dd>
                {t('about.configVersionValue', {
                  version: String(configFormat.version),
                  current: String(configFormat.current),
                })}
              </dd>
            </div>
          )}
        </dl>
      </section>
      {upgrades && (
        <section className="card stack">
          <h2>{t('about.formats')}</h2>
          <table className="about-formats">
            <tbody>
              {upgrades.formats.map((f) => (
                <tr key={`${f.format}:${f.path}`}>
                  <td>{f.label}</td>
                  <td>
                    <code>{f.path}</code>
                  </td>
                  <td>
                    v{f.version}
                    {f.version !== f.current && ` → v${f.current}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>{t('about.lastUpgrade')}</h3>
          {last ? (
            <p data-testid="about-last-upgrade">
              {formatTime(last.atMs)} · {upgradeEventText(last, t)}
              {last.backups && last.backups.length > 0 && (
                <> {t('upgrade.backups', { list: last.backups.join(', ') })}</>
              )}
            </p>
          ) : (
            <p className="muted">{t('about.noUpgrade')}</p>
          )}
          {upgrades.held && (
            <p className="notice">
              {t('upgrade.held', { version: upgrades.held.appVersion, reason: upgrades.held.reason })}
            </p>
          )}
          {upgrades.lastGoodStartMs !== undefined && (
            <p className="muted">
              {t('about.lastGood', {
                when: formatTime(upgrades.lastGoodStartMs),
                version: upgrades.lastGoodAppVersion ?? '?',
              })}
            </p>
          )}
        </section>
      )}
      <section className="card stack">
        <h2>{t('about.links')}</h2>
        <ul className="about-links">
          {guides.map((guide) => (
            <li key={guide.file}>
              {t(guide.key)}: <code>{guide.file}</code>
            </li>
          ))}
          <li>
            {t('about.issues')}: <code>hearth doctor --json</code>
          </li>
        </ul>
      </section>
    </div>
  );
}
