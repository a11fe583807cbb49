import { type FormEvent, useState } from 'react';
import { useDomain, useT } from './stores-context.js';

const TOKEN_REFUSED = new Set(['AUTH_TOKEN_MISMATCH', 'AUTH_DEVICE_TOKEN_MISMATCH']);

/** Shown when the gateway refused our token (or we have none): paste one and try again. */
export function TokenGate({ onSubmit, onPair }: { onSubmit(token: string): void; onPair?: () => void }) {
  const t = useT();
  const error = useDomain('connection', (s) => s.connection.lastError);
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) onSubmit(token.trim());
  };
  return (
    <div className="gate">
      <form className="card" onSubmit={submit} aria-labelledby="gate-title">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <h1 id="gate-title">{t('conn.auth-failed')}</h1>
        </div>
        {error && (
          <p className="notice" role="alert">
            {/* A pasted gateway token travels with this browser's device key, so the gateway may call
                a wrong one a "device token" mismatch: say it in the person's words, keep the reason. */}
            {TOKEN_REFUSED.has(error.detailCode ?? '') ? `${t('conn.tokenRefused')} (${error.message})` : error.message}
          </p>
        )}
        <p className="muted">{t('conn.tokenPrompt')}</p>
        <label className="field">
          <span>{t('conn.tokenLabel')}</span>
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        </label>
        <button className="button primary" type="submit" disabled={!token.trim()}>
          {t('conn.tokenSave')}
        </button>
        {onPair && (
          <button className="button ghost" type="button" onClick={onPair}>
            Pair this device with a code instead
          </button>
        )}
      </form>
    </div>
  );
}
