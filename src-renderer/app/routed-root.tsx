import { type ReactNode, useEffect, useState } from 'react';
import { QuickAsk } from '../features/quick-ask/quick-ask.js';
import { followRoute, type HashRoute, parseHashRoute, sessionRoute } from './hash-route.js';
import { useDomain, useStores, useT } from './stores-context.js';

/** The page's address fragment, passed in so tests drive it without a browser. */
export interface HashSource {
  read(): string;
  set(route: string): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
}

export interface RoutedRootProps {
  hash: HashSource;
  /**
   * Inside the desktop app: the quick-ask window stays the composer, and the shell
   * takes the chat route it points at to the main window (src-main/app/quick-ask-window.ts).
   */
  desktop: boolean;
  /** A pairing link: show the pairing screen and start with this code. */
  pair(code: string): void;
  /** Desktop only: put the quick-ask window away. */
  dismissQuickAsk?: () => void;
  /** The whole app (pairing gate, shell). */
  children: ReactNode;
}

/**
 * Reads the hash routes (hash-route.ts) at start and on every change: a `hearth://`
 * link the shell routed, a pasted address, or the quick-ask window handing over its chat.
 */
export function RoutedRoot({ hash, desktop, pair, dismissQuickAsk, children }: RoutedRootProps) {
  const t = useT();
  const { sessions, ui } = useStores();
  const [quickAsk, setQuickAsk] = useState(() => parseHashRoute(hash.read())?.kind === 'quick-ask');
  const [refused, setRefused] = useState<string>();
  const paused = useDomain('pause', (s) => s.paused);
  const pauseError = useDomain('pause', (s) => s.error);
  const pauseWhy = useDomain('pause', (s) => s.problem ?? s.reason);
  const { pause } = useStores();

  useEffect(() => {
    const follow = () => {
      const route: HashRoute | undefined = parseHashRoute(hash.read());
      if (route?.kind === 'quick-ask') {
        setQuickAsk(true);
        return;
      }
      // The desktop's quick-ask window never becomes the app: the shell moves the chat to the main window.
      if (desktop && quickAsk) return;
      if (route) setQuickAsk(false);
      const clear = followRoute(route, {
        openSession(sessionKey) {
          sessions.getState().select(sessionKey);
          ui.getState().navigate('chat');
          setRefused(undefined);
        },
        pair,
        refuse: setRefused,
      });
      if (clear) hash.clear();
    };
    follow();
    return hash.subscribe(follow);
  }, [hash, desktop, quickAsk, pair, sessions, ui]);

  if (quickAsk) {
    return <QuickAsk openChat={(sessionKey) => hash.set(sessionRoute(sessionKey))} dismiss={dismissQuickAsk} />;
  }
  return (
    <>
      {paused && (
        <div className="conn-banner agent-paused" role="status">
          <span>{t('pause.banner')}</span>
          {pauseWhy && <span className="muted">· {pauseWhy}</span>}
          {pauseError && <span className="muted">· {pauseError}</span>}
          <button type="button" className="button" onClick={() => void pause.getState().resume()}>
            {t('pause.resume')}
          </button>
        </div>
      )}
      {refused && (
        <div className="conn-banner route-refused" role="alert">
          <span>{t('route.refused', { reason: refused })}</span>
          <button type="button" className="button" onClick={() => setRefused(undefined)}>
            {t('route.dismiss')}
          </button>
        </div>
      )}
      {children}
    </>
  );
}
