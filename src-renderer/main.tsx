import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { StoresProvider } from './app/stores-context.js';
import { startClient } from './gateway/start-client.js';
import { pickLanguage } from './i18n/translate.js';
import { createStores } from './stores/create-stores.js';
import { isViewId } from './stores/ui-store.js';
import './app/theme.css';
import './app/controls.css';
import './app/shell.css';

// The composition root of the renderer: the only place that reads window, location and the clock.
const started = startClient({
  scope: window as unknown as { hearth?: unknown },
  location: window.location,
  tokens: {
    hash: window.location.hash,
    storage: window.localStorage,
    clearHash: () => history.replaceState(null, '', window.location.pathname + window.location.search),
  },
  WebSocket: window.WebSocket,
  platform: navigator.platform || 'web',
  locale: navigator.language,
});

const requestedView = new URLSearchParams(window.location.search).get('view') ?? '';
const stores = createStores(started.client, {
  language: pickLanguage(navigator.languages ?? [navigator.language]),
  view: isViewId(requestedView) ? requestedView : undefined,
  gatewayOrigin: started.gatewayOrigin,
  now: () => Date.now(),
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <StoresProvider stores={stores}>
      <App onToken={started.useToken} />
    </StoresProvider>
  </StrictMode>,
);
