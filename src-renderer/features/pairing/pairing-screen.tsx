import { type FormEvent, useState } from 'react';
import { type StoreApi, useStore } from 'zustand';
import { useT } from '../../app/stores-context.js';
import { formatDuration, useNow } from '../../ui/use-now.js';
import { problemWords } from './pairing-messages.js';
import type { PairingState } from './pairing-store.js';
import './pairing.css';

/** The phone's side of pairing: paste/scan a code, wait for the desktop, or read why it failed. */
export function PairingScreen({
  store,
  onUseToken,
  onBack,
}: {
  store: StoreApi<PairingState>;
  onUseToken?: () => void;
  /** The desktop: back to the app on the gateway it uses now. */
  onBack?: () => void;
}) {
  const phase = useStore(store, (s) => s.phase);
  const problem = useStore(store, (s) => s.problem);
  const deviceName = useStore(store, (s) => s.deviceName);
  const shortId = useStore(store, (s) => s.shortId);
  const expiresAt = useStore(store, (s) => s.expiresAt);
  const notice = useStore(store, (s) => s.notice);
  const busy = phase === 'connecting' || phase === 'waiting';
  const now = useNow(busy);
  const [input, setInput] = useState('');
  const t = useT();
  const said = problem ? problemWords(problem, t) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim()) void store.getState().start(input.trim());
  };

  return (
    <div className="gate pairing" data-testid="pairing-screen" data-phase={phase}>
      <section className="card stack" aria-labelledby="pairing-title" aria-live="polite">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span>Hearth</span>
        </div>
        {busy && (
          <>
            <div className="pairing-spinner" aria-hidden="true" />
            <h1 id="pairing-title">{phase === 'waiting' ? t('pairing.waitingTitle') : t('pairing.connectingTitle')}</h1>
            <p className="muted">{phase === 'waiting' ? t('pairing.waitingNote') : t('pairing.connectingNote')}</p>
            <dl className="pairing-device">
              <dt>{t('pairing.device')}</dt>
              <dd data-testid="pairing-device-name">{deviceName}</dd>
              <dt>{t('pairing.id')}</dt>
              <dd>
                <code data-testid="pairing-device-id">{shortId ?? '…'}</code>
              </dd>
            </dl>
            {notice && <p className="notice">{notice}</p>}
            {expiresAt ? (
              <p className="faint">{t('pairing.expiresIn', { time: formatDuration((expiresAt - now) / 1000) })}</p>
            ) : null}
            <button type="button" className="button ghost" onClick={() => store.getState().cancel()}>
              {t('common.cancel')}
            </button>
          </>
        )}
        {phase === 'paired' && (
          <h1 id="pairing-title" className="pairing-done">
            {t('pairing.paired')}
          </h1>
        )}
        {(phase === 'idle' || phase === 'failed') && (
          <form className="stack" onSubmit={submit}>
            {problem && said ? (
              <div className="notice pairing-problem" role="alert" data-problem={problem.kind}>
                <h1 id="pairing-title">{said.title}</h1>
                <p>{said.message}</p>
              </div>
            ) : (
              <>
                <h1 id="pairing-title">{t('pairing.title')}</h1>
                <p className="muted">{t('pairing.intro')}</p>
              </>
            )}
            <label className="field">
              <span>{t('pairing.codeLabel')}</span>
              <textarea
                className="input"
                rows={3}
                autoComplete="off"
                spellCheck={false}
                value={input}
                onChange={(e) => setInput(e.target.value)}
              />
            </label>
            <button className="button primary" type="submit" disabled={!input.trim()}>
              {t('pairing.submit')}
            </button>
            {onBack && (
              <button type="button" className="button ghost" onClick={onBack} data-testid="pairing-back">
                {t('pairing.back')}
              </button>
            )}
            {onUseToken && (
              <button type="button" className="button ghost" onClick={onUseToken}>
                {t('pairing.useToken')}
              </button>
            )}
          </form>
        )}
      </section>
    </div>
  );
}
