import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { StoresProvider } from './app/stores-context.js';
import { setUpBrowserPairing } from './features/pairing/browser-pairing.js';
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
  deferStart: phone.code !== undefined,
});
const pairing = phone.createStore(() => started.restart?.());

const requestedView = new URLSearchParams(window.location.search).get('view') ?? '';
const stores = createStores(started.client, {
  language: readLanguage(window.localStorage, pickLanguage(navigator.languages ?? [navigator.language])),
  view: isViewId(requestedView) ? requestedView : undefined,
  gatewayOrigin: started.gatewayOrigin,
  now: () => Date.now(),
});

// Theme and language are this device's choice, remembered in its storage (Settings → General).
stores.ui.subscribe((state) => writeLanguage(window.localStorage, state.language));
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
const appearance = createAppearanceStore({
  storage: window.localStorage,
  root: document.documentElement,
  osPrefersDark: () => darkQuery.matches,
  onOsChange: (listener) => darkQuery.addEventListener('change', listener),
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppearanceContext.Provider value={appearance}>
      <StoresProvider stores={stores}>
        <PairingGate store={pairing} initialCode={phone.code} device={phone.device} restart={started.restart}>
          {(openPairing) => <App onToken={started.useToken} onPair={started.restart ? openPairing : undefined} />}
        </PairingGate>
      </StoresProvider>
    </AppearanceContext.Provider>
  </StrictMode>,
);
