import type { StoreApi } from 'zustand/vanilla';
import {
  createWebSocketTransport,
  type WebSocketConstructor,
} from '../../../src-main/protocol/client/websocket-transport.js';
import {
  type DeviceKeyStore,
  indexedDbKeyStore,
  loadOrCreateDeviceIdentity,
  memoryKeyStore,
} from '../../gateway/device-identity.js';
import { createDeviceCredentials, type DeviceCredentials } from '../../gateway/device-identity-credentials.js';
import { describeDevice } from '../../gateway/device-identity-params.js';
import { gatewaySocketUrl } from '../../gateway/gateway-url.js';
import { takePairCode } from './pair-code.js';
import { attemptHandshake } from './pairing-attempt.js';
import { createPairingStore, type PairingState } from './pairing-store.js';

export interface BrowserPairingEnvironment {
  location: { protocol: string; host: string; hash: string };
  clearHash(): void;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  indexedDB?: IDBFactory;
  subtle?: SubtleCrypto;
  WebSocket: WebSocketConstructor;
  userAgent: string;
  platform: string;
  locale: string;
}

export interface BrowserPairing {
  /** The setup code from `#pair=` (already removed from the address bar). */
  code?: string;
  device: DeviceCredentials;
  createStore(onPaired: () => void): StoreApi<PairingState>;
}

/** Wires the phone's pairing to the real browser: IndexedDB key, localStorage token, WebSocket to the gateway. */
export function setUpBrowserPairing(env: BrowserPairingEnvironment): BrowserPairing {
  const code = takePairCode({ hash: env.location.hash, clearHash: env.clearHash });
  const keyStore: DeviceKeyStore = env.indexedDB ? indexedDbKeyStore(env.indexedDB) : memoryKeyStore();
  const deviceName = describeDevice(env.userAgent);
  const device = createDeviceCredentials({
    storage: env.storage,
    loadIdentity: () => loadOrCreateDeviceIdentity({ store: keyStore, subtle: env.subtle }),
    displayName: deviceName,
  });
  return {
    code,
    device,
    createStore: (onPaired) =>
      createPairingStore({
        identity: () => device.identity(),
        attempt: (url, params) => attemptHandshake(createWebSocketTransport(url, env.WebSocket), params),
        socketUrls: (setup) => [
          ...new Set([gatewaySocketUrl(env.location), ...setup.urls.map((u) => u.replace(/\/?$/, '/'))]),
        ],
        deviceName,
        platform: env.platform,
        locale: env.locale,
        now: () => Date.now(),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        onPaired(token) {
          device.saveToken(token);
          onPaired();
        },
      }),
  };
}
