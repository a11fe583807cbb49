import { createStore, type StoreApi } from 'zustand/vanilla';
import { errorText, type GatewayPort } from './gateway-port.js';

export interface PauseStoreState {
  /** "Pause agent" is on (the tray, or any client): new messages are refused until Resume. */
  paused: boolean;
  error?: string;
  resume(): Promise<void>;
}

/**
 * Follows agent.pause.changed, and reads the state on every (re)connect, so every view can say
 * the agent is paused before a message is refused for it.
 */
export function createPauseStore(client: GatewayPort): StoreApi<PauseStoreState> & { dispose(): void } {
  const store = createStore<PauseStoreState>((set) => ({
    paused: false,
    async resume() {
      try {
        const state = await client.request('agent.resume', {});
        set({ paused: state.paused, error: undefined });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
  }));
  const changes = client.on('agent.pause.changed', (state) => store.setState({ paused: state.paused }));
  const connects = client.onDidConnect(() => {
    client.request('agent.pause.status', {}).then(
      (state) => store.setState({ paused: state.paused }),
      // An older gateway without pausing: never paused.
      () => store.setState({ paused: false }),
    );
  });
  return Object.assign(store, {
    dispose: () => {
      changes.dispose();
      connects.dispose();
    },
  });
}
