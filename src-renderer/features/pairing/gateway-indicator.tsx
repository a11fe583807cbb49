import { useEffect, useState } from 'react';
import type { GatewaysView } from '../../../src-preload/hearth-bridge.js';
import { useT } from '../../app/stores-context.js';
import type { DesktopGateways } from './desktop-pairing.js';
import './gateway-indicator.css';

/** "sha256 ab12 … 9f3c": enough of the pin to compare with `hearth gateway run`'s TLS pin line. */
function shortPin(fingerprint: string): string {
  return `${fingerprint.slice(0, 4)}…${fingerprint.slice(-4)}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Which Hearth this desktop window is using, in a corner of every view: "This computer"
 * or another machine's gateway it paired with, and a menu to switch between them, pair
 * with another one, or forget one. Switching reloads the window (main does it).
 */
export function GatewayIndicator({ desktop, onPair }: { desktop: DesktopGateways; onPair: () => void }) {
  const t = useT();
  const [view, setView] = useState<GatewaysView | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  useEffect(() => {
    const stop = desktop.onGatewaysChange(setView);
    // A preload without main's handler (an older shell, the test harness) just shows no indicator.
    Promise.resolve()
      .then(() => desktop.gateways({ kind: 'view' }))
      .then(setView, () => setView(undefined));
    return stop;
  }, [desktop]);
  if (!view) return null;
  const active = view.gateways.find((gateway) => gateway.id === view.active);
  const label = active ? (active.name ?? hostOf(active.url)) : t('gateways.thisComputer');
  const run = (command: Parameters<DesktopGateways['gateways']>[0]) => {
    setFailure(undefined);
    Promise.resolve()
      .then(() => desktop.gateways(command))
      .then(setView, (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
  };
  return (
    <details className="gateway-indicator" data-testid="gateway-indicator" data-remote={active ? 'true' : 'false'}>
      <summary title={t('gateways.switchLabel')}>
        <span className={`gateway-dot${view.problem ? ' bad' : ''}`} aria-hidden="true" />
        <span data-testid="gateway-indicator-label">{label}</span>
      </summary>
      <div className="gateway-menu" role="menu" aria-label={t('gateways.switchLabel')}>
        {view.problem && (
          <p className="notice gateway-problem" role="alert" data-testid="gateway-problem">
            {t('gateways.problem', { name: label, message: view.problem })}
          </p>
        )}
        <button
          type="button"
          role="menuitemradio"
          aria-checked={!active}
          className="gateway-choice"
          onClick={() => run({ kind: 'use', id: 'local' })}
        >
          {t('gateways.thisComputer')}
        </button>
        {view.gateways.map((gateway) => (
          <div key={gateway.id} className="gateway-row">
            <button
              type="button"
              role="menuitemradio"
              aria-checked={gateway.id === view.active}
              className="gateway-choice"
              onClick={() => run({ kind: 'use', id: gateway.id })}
            >
              <span>{gateway.name ?? hostOf(gateway.url)}</span>
              <span className="faint">{t('gateways.pinned', { fingerprint: shortPin(gateway.tlsFingerprint) })}</span>
            </button>
            <button type="button" className="button ghost" onClick={() => run({ kind: 'forget', id: gateway.id })}>
              {t('gateways.forget')}
            </button>
          </div>
        ))}
        <button type="button" role="menuitem" className="button ghost" onClick={onPair}>
          {t('gateways.pairAnother')}
        </button>
        {failure && <p className="notice">{failure}</p>}
      </div>
    </details>
  );
}
