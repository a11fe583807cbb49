import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { formatTime } from '../../ui/use-now.js';
import './devices.css';

export function DevicesView() {
  const t = useT();
  const { devices } = useStores();
  const paired = useDomain('devices', (s) => s.paired);
  const pending = useDomain('devices', (s) => s.pending);
  const error = useDomain('devices', (s) => s.error);
  const setup = useDomain('devices', (s) => s.setup);
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
            <div key={request.requestId} className="card device">
              <div>
                <strong>{request.name}</strong>
                <div className="scopes">
                  {request.scopes.map((scope) => (
                    <span key={scope} className="badge plain">
                      {scope}
                    </span>
                  ))}
                </div>
              </div>
              <div className="row">
                <button
                  type="button"
                  className="button"
                  onClick={() => void devices.getState().reject(request.requestId)}
                >
                  {t('devices.reject')}
                </button>
                <button
                  type="button"
                  className="button primary"
                  onClick={() => void devices.getState().approve(request.requestId)}
                >
                  {t('devices.approve')}
                </button>
              </div>
            </div>
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
      <section className="card pair" aria-labelledby="devices-pair">
        {setup?.qrSvg ? (
          // An <img> renders the gateway's SVG without letting it run anything in our page.
          <img
            className="qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt={t('devices.qrAlt')}
          />
        ) : (
          <div className="qr-placeholder" aria-hidden="true" />
        )}
        <div className="stack">
          <h2 id="devices-pair">{t('devices.pairTitle')}</h2>
          <p className="muted">{t('devices.pairNote')}</p>
          {setup ? (
            <p>
              <code data-testid="setup-code">{setup.code}</code>{' '}
              <span className="faint">{t('devices.expires', { time: formatTime(setup.expiresAt) })}</span>
            </p>
          ) : (
            <button type="button" className="button primary" onClick={() => void devices.getState().createSetupCode()}>
              {t('devices.showCode')}
            </button>
          )}
        </div>
      </section>
    </div>
  );
}
