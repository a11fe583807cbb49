import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ConnectionState } from '../../src-main/protocol/client/connection-state.js';
import type { GatewayPort } from './gateway-port.js';

export interface ConnectionStoreState {
  connection: ConnectionState;
  scopes: string[];
  serverVersion?: string;
}

export function createConnectionStore(client: GatewayPort): StoreApi<ConnectionStoreState> & { dispose(): void } {
  const store = createStore<ConnectionStoreState>(() => ({ connection: client.state, scopes: [] }));
  const listener = client.onDidChangeState((connection) => {
    const hello = connection.hello;
    store.setState({
      connection,
      scopes: hello ? hello.auth.scopes.map(String) : store.getState().scopes,
      serverVersion: hello?.server.version ?? store.getState().serverVersion,
    });
  });
  return Object.assign(store, { dispose: () => listener.dispose() });
}
