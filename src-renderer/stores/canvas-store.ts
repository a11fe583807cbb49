import { createStore, type StoreApi } from 'zustand/vanilla';
import type { GatewayPort } from './gateway-port.js';

export interface CanvasState {
  /** Bumped on every `canvas.changed`; the view reloads its iframe when it changes. */
  revision: number;
  reload(): void;
}

export function createCanvasStore(client: GatewayPort): StoreApi<CanvasState> & { dispose(): void } {
  const store = createStore<CanvasState>((set) => ({
    revision: 0,
    reload: () => set((s) => ({ revision: s.revision + 1 })),
  }));
  const listener = client.on('canvas.changed', () => store.getState().reload());
  return Object.assign(store, { dispose: () => listener.dispose() });
}

/** The canvas lives on the gateway's HTTP origin, never the app's (Electron serves the app from app://hearth). */
export function canvasUrl(gatewayOrigin: string | undefined, revision: number, theme?: 'light' | 'dark'): string {
  const base = gatewayOrigin ? `${gatewayOrigin.replace(/\/$/, '')}/__hearth__/canvas/` : '/__hearth__/canvas/';
  // The theme is for the gateway's own empty page; an agent's page may read or ignore it.
  return `${base}?v=${revision}${theme ? `&theme=${theme}` : ''}`;
}
