import { createStore, type StoreApi } from 'zustand/vanilla';
import type { UpgradesStatus } from '../../src-main/protocol/methods/gateway.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

/** Where "this upgrade notice was seen" is kept: the browser's storage in the app, a map in tests. */
export interface NoticeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface AboutState {
  /** What the gateway's `status` says about itself and its home; undefined until it answered. */
  runtimeVersion?: string;
  protocol?: number;
  home?: string;
  upgrades?: UpgradesStatus;
  error?: string;
  /** The last upgrade event, while the person has not dismissed it on this device. */
  notice?: NonNullable<UpgradesStatus['lastEvent']>;
  refresh(): Promise<void>;
  dismissNotice(): void;
}

const seenKey = 'hearth.upgradeNoticeSeen';

/** One event is told once per device: it is known by when it happened and what it was. */
const eventId = (event: NonNullable<UpgradesStatus['lastEvent']>) => `${event.kind}@${event.atMs}`;

export function createAboutStore(
  client: GatewayPort,
  seen: NoticeStorage = memoryStorage(),
): StoreApi<AboutState> & { dispose(): void } {
  const store = createStore<AboutState>((set, get) => ({
    async refresh() {
      try {
        const status = await client.request('status', {});
        const last = status.upgrades?.lastEvent;
        set({
          runtimeVersion: status.runtimeVersion,
          protocol: status.protocol,
          home: status.home,
          upgrades: status.upgrades,
          notice: last && seen.getItem(seenKey) !== eventId(last) ? last : undefined,
          error: undefined,
        });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    dismissNotice() {
      const notice = get().notice;
      if (notice) seen.setItem(seenKey, eventId(notice));
      set({ notice: undefined });
    },
  }));
  const subscriptions = [client.onDidConnect(() => void store.getState().refresh())];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}

/** Kept for the page's life only (tests, and a browser without storage). */
export function memoryStorage(): NoticeStorage {
  const map = new Map<string, string>();
  return { getItem: (key) => map.get(key) ?? null, setItem: (key, value) => void map.set(key, value) };
}
