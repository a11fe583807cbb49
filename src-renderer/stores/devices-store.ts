import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RequestParams } from '../../src-main/protocol/client/request-options.js';
import { disposeAll, errorText, type GatewayPort, list, num, record, str } from './gateway-port.js';

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

const strings = (value: unknown) => list(value).map((s) => String(s));

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
        const result = record(await client.request('device.pair.list', {}));
        set({
          paired: list(result.paired).map((d) => {
            const r = record(d);
            return {
              deviceId: str(r.deviceId),
              name: str(r.displayName) || str(r.clientId) || str(r.deviceId).slice(0, 12),
              platform: str(r.platform) || undefined,
              role: str(r.role, 'operator'),
              scopes: strings(r.scopes),
              pairedAt: num(r.pairedAtMs) ?? num(r.approvedAtMs),
              online: r.online === true,
            };
          }),
          pending: list(result.pending).map((d) => {
            const r = record(d);
            return {
              requestId: str(r.requestId),
              deviceId: str(r.deviceId),
              name: str(r.displayName) || str(r.clientId) || str(r.deviceId).slice(0, 12),
              scopes: strings(r.scopes),
              ts: num(r.ts),
              platform: str(r.platform) || undefined,
              remoteAddress: str(r.remoteAddress) || undefined,
              role: str(r.role) || undefined,
              isRepair: r.isRepair === true,
            };
          }),
          error: undefined,
        });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async createSetupCode() {
      try {
        const r = record(await client.request('device.pair.setup', {}));
        set({
          setup: {
            code: str(r.code),
            link: str(r.link),
            qrSvg: str(r.qrSvg),
            expiresAt: num(r.expiresAt) ?? 0,
            webUrl: str(r.webUrl) || undefined,
            tlsFingerprint: str(r.tlsFingerprint) || undefined,
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
