import { Suspense, useState } from 'react';
import { CommandLayer } from '../features/palette/command-layer.js';
import { UpgradeNotice } from '../features/settings/upgrade-notice.js';
import type { ViewId } from '../stores/ui-store.js';
import { Icon } from '../ui/icons.js';
import { ConnectionBadge, ConnectionBanner } from './connection-badge.js';
import { navEntries, phoneTabs } from './nav.js';
import { useDomain, useStores, useT } from './stores-context.js';
import { TokenGate } from './token-gate.js';
import { flushViews, viewComponents } from './view-registry.js';

export interface AppProps {
  /** Present in the browser: lets the user paste a token after a refusal. Absent inside Electron. */
  onToken?: (token: string) => void;
  /** Present in the browser: pair this device with a setup code instead. */
  onPair?: () => void;
}

function NavButton({ id, label, count, onSelect }: { id: ViewId; label: string; count?: number; onSelect(): void }) {
  const current = useDomain('ui', (s) => s.view);
  return (
    <button
      type="button"
      className="nav-item"
      aria-current={current === id ? 'page' : undefined}
      onClick={onSelect}
      data-testid={`nav-${id}`}
    >
      <Icon name={id} />
      <span>{label}</span>
      {count ? (
        <span className="count" role="img" aria-label={`${count}`}>
          {count}
        </span>
      ) : null}
    </button>
  );
}

export function App({ onToken, onPair }: AppProps) {
  const t = useT();
  const { ui } = useStores();
  const view = useDomain('ui', (s) => s.view);
  const status = useDomain('connection', (s) => s.connection.status);
  const pendingApprovals = useDomain('approvals', (s) => s.pending.length);
  const [moreOpen, setMoreOpen] = useState(false);
  const navigate = (id: ViewId) => {
    ui.getState().navigate(id);
    setMoreOpen(false);
  };

  if (status === 'auth-failed' && onToken) return <TokenGate onSubmit={onToken} onPair={onPair} />;

  const View = viewComponents[view];
  const countFor = (id: ViewId) => (id === 'approvals' ? pendingApprovals : undefined);
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          {t('app.name')}
        </div>
        {navEntries.map((entry) => (
          <NavButton
            key={entry.id}
            id={entry.id}
            label={t(entry.label)}
            count={countFor(entry.id)}
            onSelect={() => navigate(entry.id)}
          />
        ))}
        <div className="sidebar-footer">
          <ConnectionBadge />
        </div>
      </nav>
      <div className="main">
        <ConnectionBanner />
        <UpgradeNotice />
        <main className={flushViews.has(view) ? 'view flush' : 'view'} aria-label={t(`nav.${view}`)}>
          <Suspense fallback={<p className="empty">{t('common.loading')}</p>}>
            <View />
          </Suspense>
        </main>
      </div>
      <nav className="tabbar" aria-label="Tabs">
        {phoneTabs.map((id) => (
          <NavButton key={id} id={id} label={t(`nav.${id}`)} count={countFor(id)} onSelect={() => navigate(id)} />
        ))}
        <button
          type="button"
          className="nav-item"
          aria-expanded={moreOpen}
          aria-haspopup="menu"
          onClick={() => setMoreOpen((open) => !open)}
          data-testid="nav-more"
        >
          <Icon name="menu" />
          <span>{t('nav.more')}</span>
        </button>
      </nav>
      {moreOpen && (
        <>
          <div className="sheet-backdrop" onClick={() => setMoreOpen(false)} aria-hidden="true" />
          <div className="sheet" role="menu" aria-label={t('nav.more')}>
            {navEntries
              .filter((entry) => !phoneTabs.includes(entry.id))
              .map((entry) => (
                <NavButton key={entry.id} id={entry.id} label={t(entry.label)} onSelect={() => navigate(entry.id)} />
              ))}
            <div className="row" style={{ padding: 8 }}>
              <ConnectionBadge />
            </div>
          </div>
        </>
      )}
      <CommandLayer />
    </div>
  );
}
