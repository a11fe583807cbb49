import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { parseHashRoute } from './app/hash-route.js';
import { type HashSource, RoutedRoot } from './app/routed-root.js';
import { StoresProvider } from './app/stores-context.js';
import { setUpBrowserPairing } from './features/pairing/browser-pairing.js';
import { createDesktopPairingStore, findDesktopGateways } from './features/pairing/desktop-pairing.js';
import { PairingGate } from './features/pairing/pairing-gate.js';
import { readLanguage, writeLanguage } from './features/settings/appearance.js';
import { AppearanceContext, createAppearanceStore } from './features/settings/appearance-store.js';
import { startClient } from './gateway/start-client.js';
import { pickLanguage } from './i18n/translate.js';
import { createStores } from './stores/create-stores.js';
import { isViewId } from './stores/ui-store.js';
import './app/theme.css';
import './app/controls.css';
import './app/shell.css';

// The composition root of the renderer: the only place that reads window, location and the clock.
const clearHash = () => history.replaceState(null, '', window.location.pathname + window.location.search);
// A phone opened from the pairing QR (`#pair=`), or one paired earlier (device key + token).
const phone = setUpBrowserPairing({
  location: window.location,
  clearHash,
  storage: window.localStorage,
  indexedDB: window.indexedDB,
  subtle: window.crypto?.subtle,
  WebSocket: window.WebSocket,
  userAgent: navigator.userAgent,
  platform: navigator.platform || 'web',
  locale: navigator.language,
});
// `#/pair?code=…` (a hearth:// pairing link the desktop routed, or a pasted address) pairs like the QR's `#pair=`.
const launchRoute = parseHashRoute(window.location.hash);
const launchPairCode = phone.code ?? (launchRoute?.kind === 'pair' ? launchRoute.code : undefined);
// Single use: out of the address bar at once (the pairing gate has it), so it is not followed twice.
if (launchRoute?.kind === 'pair') clearHash();
const started = startClient({
  scope: window as unknown as { hearth?: unknown },
  location: window.location,
  tokens: {
    hash: window.location.hash,
    storage: window.localStorage,
    clearHash,
  },
  WebSocket: window.WebSocket,
  platform: navigator.platform || 'web',
  locale: navigator.language,
  device: phone.device,
  deferStart: launchPairCode !== undefined,
});
// Inside the desktop app main pairs (pinned TLS, its own key) and switches gateways; the page shows it.
const desktop = started.kind === 'ipc' ? findDesktopGateways((window as { hearth?: unknown }).hearth) : undefined;
const pairing = desktop
  ? createDesktopPairingStore(desktop, 'Hearth desktop')
  : phone.createStore(() => started.restart?.());

const requestedView = new URLSearchParams(window.location.search).get('view') ?? '';
const stores = createStores(started.client, {
  language: readLanguage(window.localStorage, pickLanguage(navigator.languages ?? [navigator.language])),
  view: isViewId(requestedView) ? requestedView : undefined,
  gatewayOrigin: started.gatewayOrigin,
  now: () => Date.now(),
  storage: window.localStorage,
});

// Theme and language are this device's choice, remembered in its storage (Settings → General).
stores.ui.subscribe((state) => writeLanguage(window.localStorage, state.language));
// Inside the desktop app main's native approval box and notifications speak the language chosen here.
const shell = (window as { hearth?: { setLanguage?: (language: string) => void } }).hearth;
let toldShell = stores.ui.getState().language;
shell?.setLanguage?.(toldShell);
stores.ui.subscribe(({ language }) => {
  if (language === toldShell) return;
  toldShell = language;
  shell?.setLanguage?.(language);
});
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
const appearance = createAppearanceStore({
  storage: window.localStorage,
  root: document.documentElement,
  osPrefersDark: () => darkQuery.matches,
  onOsChange: (listener) => darkQuery.addEventListener('change', listener),
});

const hash: HashSource = {
  read: () => window.location.hash,
  set: (route) => {
    window.location.hash = route;
  },
  clear: clearHash,
  subscribe: (listener) => {
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  },
};
// Pairing links after start reach the pairing gate through this one listener slot.
let startPairing: ((code: string) => void) | undefined;
const onPairLink = (start: (code: string) => void) => {
  startPairing = start;
  return () => {
    if (startPairing === start) startPairing = undefined;
  };
};
const pairLater = (code: string) => startPairing?.(code);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppearanceContext.Provider value={appearance}>
      <StoresProvider stores={stores}>
        <RoutedRoot
          hash={hash}
          desktop={started.kind === 'ipc'}
          pair={pairLater}
          dismissQuickAsk={started.kind === 'ipc' ? () => window.close() : undefined}
        >
          <PairingGate
            store={pairing}
            initialCode={launchPairCode}
            device={phone.device}
            restart={started.restart}
            onPairLink={onPairLink}
            desktop={desktop}
          >
            {(openPairing) => <App onToken={started.useToken} onPair={started.restart ? openPairing : undefined} />}
          </PairingGate>
        </RoutedRoot>
      </StoresProvider>
    </AppearanceContext.Provider>
  </StrictMode>,
);
