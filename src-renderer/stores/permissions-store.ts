import { createStore, type StoreApi } from 'zustand/vanilla';
import type { PermissionRuleView, SessionGrantView } from '../../src-main/protocol/methods/permissions.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

export interface PermissionsState {
  rules: PermissionRuleView[];
  session: SessionGrantView[];
  loaded: boolean;
  /** Ids being revoked (their button is disabled meanwhile). */
  busy: string[];
  error?: string;
  /** The last revoke that went through, for the notice. */
  revoked?: string;
  refresh(): Promise<void>;
  revoke(id: string): Promise<void>;
}

/**
 * The Permissions view's data: `permissions.list` (every "always" rule and session grant) and
 * `permissions.revoke`. Answers change the list, so it refreshes after every resolved approval.
 */
export function createPermissionsStore(client: GatewayPort): StoreApi<PermissionsState> & { dispose(): void } {
  const store = createStore<PermissionsState>((set, get) => ({
    rules: [],
    session: [],
    loaded: false,
    busy: [],
    async refresh() {
      try {
        const { rules, session } = await client.request('permissions.list', {});
        set({ rules, session, loaded: true, error: undefined });
      } catch (error) {
        set({ error: errorText(error), loaded: true });
      }
    },
    async revoke(id) {
      set({ busy: [...get().busy, id] });
      try {
        await client.request('permissions.revoke', { id });
        set({ error: undefined, revoked: id });
      } catch (error) {
        set({ error: errorText(error) });
      } finally {
        set({ busy: get().busy.filter((candidate) => candidate !== id) });
      }
      await get().refresh();
    },
  }));
  const subscriptions = [
    client.on('exec.approval.resolved', () => {
      if (store.getState().loaded) void store.getState().refresh();
    }),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
