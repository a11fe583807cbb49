import { type FormEvent, useState } from 'react';
import { type StoreApi, useStore } from 'zustand';
import { formatDuration, useNow } from '../../ui/use-now.js';
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
            <h1 id="pairing-title">
              {phase === 'waiting' ? 'Waiting for approval on your computer…' : 'Connecting to your computer…'}
            </h1>
            <p className="muted">
              {phase === 'waiting'
                ? 'Open Hearth on your computer and approve this device in Devices. Check the id matches.'
                : 'Sending a pairing request with this device’s own key.'}
            </p>
            <dl className="pairing-device">
              <dt>Device</dt>
              <dd data-testid="pairing-device-name">{deviceName}</dd>
              <dt>Id</dt>
              <dd>
                <code data-testid="pairing-device-id">{shortId ?? '…'}</code>
              </dd>
            </dl>
            {notice && <p className="notice">{notice}</p>}
            {expiresAt ? <p className="faint">Code expires in {formatDuration((expiresAt - now) / 1000)}</p> : null}
            <button type="button" className="button ghost" onClick={() => store.getState().cancel()}>
              Cancel
            </button>
          </>
        )}
        {phase === 'paired' && (
          <h1 id="pairing-title" className="pairing-done">
            Paired. Connecting…
          </h1>
        )}
        {(phase === 'idle' || phase === 'failed') && (
          <form className="stack" onSubmit={submit}>
            {problem ? (
              <div className="notice pairing-problem" role="alert" data-problem={problem.kind}>
                <h1 id="pairing-title">{problem.title}</h1>
                <p>{problem.message}</p>
              </div>
            ) : (
              <>
                <h1 id="pairing-title">Pair this device</h1>
                <p className="muted">
                  Scan the QR code shown in Hearth on your computer (Devices → Pair a phone), or paste its code or
                  hearth:// link here.
                </p>
              </>
            )}
            <label className="field">
              <span>Pairing code or link</span>
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
              Pair
            </button>
            {onBack && (
              <button type="button" className="button ghost" onClick={onBack} data-testid="pairing-back">
                Back
              </button>
            )}
            {onUseToken && (
              <button type="button" className="button ghost" onClick={onUseToken}>
                Use a gateway token instead
              </button>
            )}
          </form>
        )}
      </section>
    </div>
  );
}
