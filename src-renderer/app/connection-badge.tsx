import { useEffect, useState } from 'react';
import type { ConnectionStatus } from '../../src-main/protocol/client/connection-state.js';
import { useDomain, useStores, useT } from './stores-context.js';

const tone: Record<ConnectionStatus, string> = {
  idle: '',
  connecting: 'warn',
  connected: 'ok',
  reconnecting: 'warn',
  disconnected: 'danger',
  'auth-failed': 'danger',
};

/** The connection state, always visible: users should never wonder whether Hearth is listening. */
export function ConnectionBadge() {
  const t = useT();
  const connection = useDomain('connection', (s) => s.connection);
  return (
    <output className={`badge ${tone[connection.status]}`} aria-live="polite" title={connection.lastError?.message}>
      {t(`conn.${connection.status}`)}
    </output>
  );
}

/** A thin banner above the view while the link is down, with the retry countdown. */
export function ConnectionBanner() {
  const t = useT();
  const { now } = useStores();
  const connection = useDomain('connection', (s) => s.connection);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (connection.status !== 'reconnecting') return;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [connection.status]);
  if (connection.status !== 'reconnecting' && connection.status !== 'disconnected') return null;
  const seconds = connection.nextRetryAt ? Math.max(0, Math.ceil((connection.nextRetryAt - now()) / 1000)) : undefined;
  return (
    <div className="conn-banner" role="status">
      <span>{t(`conn.${connection.status}`)}</span>
      {connection.lastError && <span className="muted">· {connection.lastError.message}</span>}
      {seconds !== undefined && <span>· {t('conn.retryIn', { s: seconds })}</span>}
    </div>
  );
}
