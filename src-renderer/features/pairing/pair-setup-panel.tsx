import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { formatDuration, useNow } from '../../ui/use-now.js';
import './pairing.css';

/** "64 hex digits" → "AB:CD:…" groups, the way certificate pins are usually shown. */
export function formatPin(fingerprint: string): string {
  return (fingerprint.toUpperCase().match(/.{1,2}/g) ?? []).join(':');
}

/** Desktop: make a setup code and show its QR, link, certificate pin and how long it lasts. */
export function PairSetupPanel() {
  const t = useT();
  const { devices } = useStores();
  const setup = useDomain('devices', (s) => s.setup);
  const now = useNow(setup !== undefined);
  const remaining = setup ? Math.max(0, setup.expiresAt - now) : 0;
  const expired = setup !== undefined && remaining <= 0;
  const create = () => void devices.getState().createSetupCode();

  return (
    <section className="card stack" aria-labelledby="devices-pair" data-testid="pair-setup">
      <h2 id="devices-pair">{t('devices.pairTitle')}</h2>
      {!setup && (
        <>
          <p className="muted">
            Show a one-time code, scan it with the phone’s camera, then approve the phone here. The code lasts 10
            minutes and never contains your gateway token.
          </p>
          <div>
            <button type="button" className="button primary" onClick={create}>
              Pair a phone
            </button>
          </div>
        </>
      )}
      {setup && (
        <div className="pair-setup">
          {setup.qrSvg && !expired ? (
            // An <img> renders the gateway's SVG without letting it run anything in our page.
            <img
              className="qr-large"
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
              alt="Pairing QR code: scan it with the phone's camera"
            />
          ) : (
            <div className="qr-placeholder" aria-hidden="true" />
          )}
          <div className="stack">
            {expired ? (
              <p className="notice" role="status">
                This code has expired.
              </p>
            ) : (
              <p>
                Scan with the phone’s camera. Expires in{' '}
                <strong data-testid="setup-countdown">{formatDuration(remaining / 1000)}</strong>
              </p>
            )}
            <dl>
              {setup.webUrl && (
                <>
                  <dt>Link</dt>
                  <dd>
                    <code data-testid="setup-link">{setup.webUrl}</code>
                  </dd>
                </>
              )}
              <dt>Code</dt>
              <dd>
                <code data-testid="setup-code">{setup.link || setup.code}</code>
              </dd>
              {setup.tlsFingerprint && (
                <>
                  <dt>Pin</dt>
                  <dd>
                    <code data-testid="setup-pin">sha256:{formatPin(setup.tlsFingerprint)}</code>
                  </dd>
                </>
              )}
            </dl>
            <div>
              <button type="button" className="button" onClick={create}>
                {expired ? 'Make a new code' : 'New code'}
              </button>
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
