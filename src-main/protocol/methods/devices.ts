import { z } from 'zod';
import { method } from './define.js';

export interface PairingRequestView {
  requestId: string;
  deviceId: string;
  publicKey: string;
  clientId: string;
  clientMode: string;
  displayName?: string;
  platform?: string;
  remoteAddress?: string;
  role: string;
  scopes: string[];
  /** The device paired before (a reinstall, or more scopes): "known device, new token?". */
  isRepair: boolean;
  reason: 'not-paired' | 'role-upgrade' | 'scope-upgrade';
  viaSetupCode: boolean;
  ts: number;
  expiresAtMs: number;
}

export interface PairedDeviceView {
  deviceId: string;
  displayName?: string;
  platform?: string;
  clientId: string;
  role: string;
  scopes: string[];
  pairedAtMs: number;
  lastSeenMs?: number;
  approvedVia: string;
  online: boolean;
  roles: { role: string; scopes: string[]; issuedAtMs: number }[];
}

export interface SetupCodeResult {
  code: string;
  /** `hearth://pair?code=…`, for the desktop app and other Hearth installs. */
  link: string;
  /** `https://<lan>:<port>/#pair=<code>`: what the QR encodes, so a phone camera opens the Control UI. */
  webUrl: string;
  urls: string[];
  tlsFingerprint: string;
  expiresAt: number;
  /** The most a device pairing with this code may ask for. */
  scopes: string[];
  /** The QR as SVG markup (for the Devices view) and as terminal text (for the CLI). */
  qrSvg: string;
  qrText: string;
}

const role = z.enum(['operator', 'node']);

export const devicesMethods = {
  'device.pair.list': method<{ pending: PairingRequestView[]; paired: PairedDeviceView[] }>()({
    scope: 'operator.pairing',
    params: () => z.object({}).strict(),
  }),
  'device.pair.approve': method<{ requestId: string; device: PairedDeviceView }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: () => z.object({ requestId: z.string().min(1), scopes: z.array(z.string()).optional() }).strict(),
  }),
  'device.pair.reject': method<{ requestId: string; deviceId: string }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: () => z.object({ requestId: z.string().min(1) }).strict(),
  }),
  'device.pair.remove': method<{ deviceId: string; removed: boolean; closedConnections: number }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: () => z.object({ deviceId: z.string().min(1) }).strict(),
  }),
  'device.pair.setup': method<SetupCodeResult>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          ttlMs: z.number().int().min(60_000).max(3_600_000).optional(),
          /** The most a device pairing with the code may ask for (default: read, write, approvals). */
          scopes: z.array(z.string()).min(1).optional(),
        })
        .strict(),
  }),
  'device.token.rotate': method<{
    deviceId: string;
    role: string;
    scopes: string[];
    rotatedAtMs: number;
    tokenDelivery: 'returned' | 'next-connect';
    token?: string;
  }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: () => z.object({ deviceId: z.string().min(1), role, scopes: z.array(z.string()).optional() }).strict(),
  }),
  'device.token.revoke': method<{ deviceId: string; role: string; revokedAtMs: number; closedConnections: number }>()({
    scope: 'operator.pairing',
    controlPlaneWrite: true,
    params: () => z.object({ deviceId: z.string().min(1), role }).strict(),
  }),
};
