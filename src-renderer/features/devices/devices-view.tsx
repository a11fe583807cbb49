import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { formatTime } from '../../ui/use-now.js';
import { PairRequestCard } from '../pairing/pair-request-card.js';
import { PairSetupPanel } from '../pairing/pair-setup-panel.js';
import './devices.css';

export function DevicesView() {
  const t = useT();
  const { devices } = useStores();
  const paired = useDomain('devices', (s) => s.paired);
  const pending = useDomain('devices', (s) => s.pending);
  const error = useDomain('devices', (s) => s.error);
  return (
    <div className="view-narrow stack">
      <header className="view-header">
        <h1>{t('devices.title')}</h1>
      </header>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      {pending.length > 0 && (
        <section className="stack" aria-labelledby="devices-pending">
          <h2 id="devices-pending">{t('devices.pending')}</h2>
          {pending.map((request) => (
            <PairRequestCard key={request.requestId} request={request} />
          ))}
        </section>
      )}
      <section className="stack" aria-labelledby="devices-paired">
        <h2 id="devices-paired">{t('devices.paired')}</h2>
        {paired.length === 0 && <p className="empty card">{t('devices.none')}</p>}
        {paired.map((device) => (
          <div key={device.deviceId} className="card device" data-testid="device">
            <div>
              <div className="row">
                <strong>{device.name}</strong>
                {device.online && <span className="badge ok">{t('devices.online')}</span>}
                {device.platform && <span className="faint">{device.platform}</span>}
                <span className="faint">· {formatTime(device.pairedAt)}</span>
              </div>
              <div className="scopes">
                {device.scopes.map((scope) => (
                  <span key={scope} className="badge plain">
                    {scope}
                  </span>
                ))}
              </div>
            </div>
            <button
              type="button"
              className="button danger"
              onClick={() => void devices.getState().revoke(device.deviceId)}
            >
              {t('devices.revoke')}
            </button>
          </div>
        ))}
      </section>
      <PairSetupPanel />
    </div>
  );
}
