import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentPauseState } from '../../src-main/protocol/methods/agent.js';
import { errorText, type GatewayPort } from './gateway-port.js';

export interface PauseStoreState {
  /** "Pause agent" is on (the tray, or any client): new messages are refused until Resume. */
  paused: boolean;
  /** The reason given with the pause (`hearth agent pause --reason`). */
  reason?: string;
  /** The saved pause could not be read at start, so Hearth came up paused: the server's words. */
  problem?: string;
  error?: string;
  resume(): Promise<void>;
}

/** A pause survives restarts, so the banner says why it is on (the reason, or a damaged saved state). */
const shown = (state: AgentPauseState) => ({ paused: state.paused, reason: state.reason, problem: state.problem });

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
        set({ ...shown(state), error: undefined });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
  }));
  const changes = client.on('agent.pause.changed', (state) => store.setState(shown(state)));
  const connects = client.onDidConnect(() => {
    client.request('agent.pause.status', {}).then(
      (state) => store.setState(shown(state)),
      // An older gateway without pausing: never paused.
      () => store.setState({ paused: false, reason: undefined, problem: undefined }),
    );
  });
  return Object.assign(store, {
    dispose: () => {
      changes.dispose();
      connects.dispose();
    },
  });
}
