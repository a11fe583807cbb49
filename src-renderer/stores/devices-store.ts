import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RequestParams } from '../../src-main/protocol/client/request-options.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

export interface PairedDevice {
  deviceId: string;
  name: string;
  platform?: string;
  role: string;
  scopes: string[];
  pairedAt?: number;
  online: boolean;
}

export interface PairRequest {
  requestId: string;
  deviceId: string;
  name: string;
  scopes: string[];
  ts?: number;
  platform?: string;
  remoteAddress?: string;
  role?: string;
  /** The device paired before (same key): "known device, new token?". */
  isRepair: boolean;
}

export interface SetupCode {
  code: string;
  link: string;
  qrSvg: string;
  expiresAt: number;
  /** The https link the QR encodes (opens the Control UI on the phone). */
  webUrl?: string;
  /** SHA-256 of the gateway's TLS certificate, pinned by the phone. */
  tlsFingerprint?: string;
}

export interface DevicesState {
  paired: PairedDevice[];
  pending: PairRequest[];
  setup?: SetupCode;
  error?: string;
  /** A one-time setup code (and its QR) a phone scans to pair. */
  createSetupCode(): Promise<void>;
  refresh(): Promise<void>;
  revoke(deviceId: string): Promise<void>;
  approve(requestId: string): Promise<void>;
  reject(requestId: string): Promise<void>;
}

export function createDevicesStore(client: GatewayPort): StoreApi<DevicesState> & { dispose(): void } {
  const act = async <M extends 'device.pair.remove' | 'device.pair.approve' | 'device.pair.reject'>(
    method: M,
    params: RequestParams<M>,
  ) => {
    try {
      await client.request(method, params);
      await store.getState().refresh();
    } catch (error) {
      store.setState({ error: errorText(error) });
    }
  };
  const store = createStore<DevicesState>((set) => ({
    paired: [],
    pending: [],
    async refresh() {
      try {
        const result = await client.request('device.pair.list', {});
        set({
          paired: result.paired.map((device) => ({
            deviceId: device.deviceId,
            name: device.displayName || device.clientId || device.deviceId.slice(0, 12),
            ...(device.platform ? { platform: device.platform } : {}),
            role: device.role,
            scopes: device.scopes,
            pairedAt: device.pairedAtMs,
            online: device.online,
          })),
          pending: result.pending.map((request) => ({
            requestId: request.requestId,
            deviceId: request.deviceId,
            name: request.displayName || request.clientId || request.deviceId.slice(0, 12),
            scopes: request.scopes,
            ts: request.ts,
            ...(request.platform ? { platform: request.platform } : {}),
            ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
            role: request.role,
            isRepair: request.isRepair,
          })),
          error: undefined,
        });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async createSetupCode() {
      try {
        const code = await client.request('device.pair.setup', {});
        set({
          setup: {
            code: code.code,
            link: code.link,
            qrSvg: code.qrSvg,
            expiresAt: code.expiresAt,
            ...(code.webUrl ? { webUrl: code.webUrl } : {}),
            ...(code.tlsFingerprint ? { tlsFingerprint: code.tlsFingerprint } : {}),
          },
          error: undefined,
        });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    revoke: (deviceId) => act('device.pair.remove', { deviceId }),
    approve: (requestId) => act('device.pair.approve', { requestId }),
    reject: (requestId) => act('device.pair.reject', { requestId }),
  }));
  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('device.pair.requested', () => void store.getState().refresh()),
    client.on('device.pair.resolved', () => void store.getState().refresh()),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
