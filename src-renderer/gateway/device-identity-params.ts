import type { ConnectChallenge, ConnectParams } from '../../src-main/protocol/connect.js';
import { buildDeviceAuthPayloadV3 } from '../../src-main/protocol/device-auth.js';
import { buildUiConnectParams } from './connect-params.js';
import type { DeviceIdentity } from './device-identity.js';

/** What a paired phone asks for: chat, read, and answering approvals; never admin or pairing. */
export const PHONE_SCOPES = ['operator.read', 'operator.write', 'operator.approvals'];

export interface DeviceConnectInput {
  identity: DeviceIdentity;
  /** `token`: the gateway token, on a sign-in that registers this device. */
  auth: { token?: string; bootstrapToken?: string; deviceToken?: string };
  platform: string;
  locale?: string;
  displayName?: string;
  scopes?: string[];
}

/** `connect` params carrying a v3 device proof over this socket's challenge (PROTOCOL.md §3). */
export async function signedConnectParams(
  challenge: ConnectChallenge,
  input: DeviceConnectInput,
): Promise<ConnectParams> {
  const params = buildUiConnectParams({ platform: input.platform, locale: input.locale });
  const scopes = input.scopes ?? PHONE_SCOPES;
  params.scopes = scopes;
  if (input.displayName) params.client.displayName = input.displayName;
  params.auth = { ...input.auth };
  const payload = buildDeviceAuthPayloadV3({
    deviceId: input.identity.id,
    clientId: params.client.id,
    clientMode: params.client.mode,
    role: params.role ?? 'operator',
    scopes,
    signedAt: challenge.ts,
    token: input.auth.token ?? input.auth.deviceToken ?? input.auth.bootstrapToken,
    nonce: challenge.nonce,
    platform: params.client.platform,
    deviceFamily: params.client.deviceFamily,
  });
  params.device = {
    id: input.identity.id,
    publicKey: input.identity.publicKey,
    signature: await input.identity.sign(payload),
    signedAt: challenge.ts,
    nonce: challenge.nonce,
  };
  return params;
}

/** A readable name for the desktop's prompt: "iPhone", "Android phone", "Chrome on Linux"… */
export function describeDevice(userAgent: string): string {
  if (/iPhone/.test(userAgent)) return 'iPhone';
  if (/iPad/.test(userAgent)) return 'iPad';
  if (/Android/.test(userAgent)) return /Mobile/.test(userAgent) ? 'Android phone' : 'Android tablet';
  const browser = /Firefox\//.test(userAgent)
    ? 'Firefox'
    : /Edg\//.test(userAgent)
      ? 'Edge'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const os = /Mac OS X/.test(userAgent)
    ? 'Mac'
    : /Windows/.test(userAgent)
      ? 'Windows'
      : /Linux/.test(userAgent)
        ? 'Linux'
        : '';
  return os ? `${browser} on ${os}` : browser;
}
