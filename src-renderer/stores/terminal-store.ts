import { createStore, type StoreApi } from 'zustand/vanilla';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

export interface TerminalState {
  terminalId?: string;
  exitCode?: number;
  opening: boolean;
  error?: string;
  open(size: { cols: number; rows: number }): Promise<void>;
  input(data: string): void;
  resize(size: { cols: number; rows: number }): void;
  close(): Promise<void>;
  /** Output goes straight to xterm, not through React state; late listeners get the scrollback first. */
  onOutput(listener: (data: string) => void): () => void;
}

const SCROLLBACK_LIMIT = 200_000;

export function createTerminalStore(client: GatewayPort): StoreApi<TerminalState> & { dispose(): void } {
  const listeners = new Set<(data: string) => void>();
  let scrollback = '';
  const store = createStore<TerminalState>((set, get) => ({
    opening: false,
    async open(size) {
      if (get().terminalId || get().opening) return;
      set({ opening: true, exitCode: undefined, error: undefined });
      scrollback = '';
      try {
        const { terminalId } = await client.request('terminal.open', size);
        set({ terminalId, opening: false });
      } catch (error) {
        set({ opening: false, error: errorText(error) });
      }
    },
    input(data) {
      const terminalId = get().terminalId;
      if (terminalId) client.request('terminal.input', { terminalId, data }).catch(() => {});
    },
    resize(size) {
      const terminalId = get().terminalId;
      if (terminalId) client.request('terminal.resize', { terminalId, ...size }).catch(() => {});
    },
    async close() {
      const terminalId = get().terminalId;
      if (!terminalId) return;
      set({ terminalId: undefined });
      await client.request('terminal.close', { terminalId }).catch(() => {});
    },
    onOutput(listener) {
      if (scrollback) listener(scrollback);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  }));
  const subscriptions = [
    client.on('terminal.output', (payload) => {
      if (payload.terminalId !== store.getState().terminalId) return;
      const { data } = payload;
      scrollback = (scrollback + data).slice(-SCROLLBACK_LIMIT);
      for (const listener of listeners) listener(data);
    }),
    client.on('terminal.exit', (payload) => {
      if (payload.terminalId !== store.getState().terminalId) return;
      store.setState({ terminalId: undefined, exitCode: payload.exitCode });
    }),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
