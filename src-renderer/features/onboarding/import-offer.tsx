import { useEffect } from 'react';
import type { ImportItemView } from '../../../src-main/protocol/methods/import.js';
import { type MessageKey, useDomain, useStores, useT } from '../../app/stores-context.js';
import { importReasonText } from './import-reason-words.js';

const toolNames = { openclaw: 'OpenClaw', hermes: 'Hermes Agent' } as const;
// What a person needs to look at first: what will change, then what will not and why.
const order: readonly ImportItemView['status'][] = ['failed', 'imported', 'import', 'conflict', 'skipped', 'present'];

/**
 * "Import from OpenClaw / Hermes" in onboarding, when the gateway finds that tool's folder: the
 * dry run first (what comes over, conflicts, what is skipped and why), then Import.
 */
export function ImportOffer() {
  const t = useT();
  const { imports } = useStores();
  const connected = useDomain('connection', (s) => s.connection.status === 'connected');
  const found = useDomain('imports', (s) => s.found);
  const report = useDomain('imports', (s) => s.report);
  const busy = useDomain('imports', (s) => s.busy);
  const error = useDomain('imports', (s) => s.error);
  useEffect(() => {
    if (connected) void imports.getState().detect();
  }, [connected, imports]);

  if (!report) {
    if (found.length === 0) return null;
    return (
      <div className="import-offer stack">
        {found.map(({ source, from }) => (
          <div key={source} className="row" style={{ flexWrap: 'wrap' }}>
            <p className="muted">{t('onboarding.import.found', { tool: toolNames[source], from })}</p>
            <button
              type="button"
              className="button"
              disabled={busy !== undefined}
              onClick={() => void imports.getState().preview(source)}
            >
              {busy === source
                ? t('onboarding.import.busy')
                : t('onboarding.import.review', { tool: toolNames[source] })}
            </button>
          </div>
        ))}
        {error && (
          <p role="alert" className="badge warn">
            {error}
          </p>
        )}
      </div>
    );
  }
  const items = [...report.items].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
  return (
    <div className="import-offer stack" aria-live="polite">
      <p role="status">{t(report.applied ? 'onboarding.import.result' : 'onboarding.import.plan', report.counts)}</p>
      <p className="faint">{t('onboarding.import.safe')}</p>
      <ul className="import-items">
        {items.map((item) => {
          const why = importReasonText(t, item);
          return (
            <li key={`${item.kind}\n${item.target}\n${item.origin}`} className={`import-item ${item.status}`}>
              <span className="badge">{t(`onboarding.import.status.${item.status}` as MessageKey)}</span>{' '}
              <span>{item.target === '-' ? item.origin : item.target}</span>
              {why && <span className="faint"> — {why}</span>}
            </li>
          );
        })}
      </ul>
      {error && (
        <p role="alert" className="badge warn">
          {error}
        </p>
      )}
      <div className="row">
        {!report.applied && (
          <button
            type="button"
            className="button primary"
            disabled={busy !== undefined || report.counts.import === 0}
            onClick={() => void imports.getState().apply(report.source)}
          >
            {busy ? t('onboarding.import.busy') : t('onboarding.import.apply')}
          </button>
        )}
        <button type="button" className="button ghost" onClick={() => imports.getState().close()}>
          {report.applied ? t('onboarding.import.done') : t('onboarding.import.cancel')}
        </button>
      </div>
    </div>
  );
}
