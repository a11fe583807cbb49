// Device identity payloads (PROTOCOL.md §3). Pure string and byte work so the
// renderer (phone pairing) and the gateway build exactly the same payload.

export interface DeviceAuthFields {
  deviceId: string;
  clientId: string;
  clientMode: string;
  role: string;
  scopes: readonly string[];
  signedAt: number;
  token?: string;
  nonce: string;
  platform?: string;
  deviceFamily?: string;
}

/** Trims and lowercases ASCII A–Z only (non-ASCII letters stay as they are). */
function normaliseField(value: string | undefined): string {
  return (value ?? '').trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}

export function buildDeviceAuthPayloadV3(fields: DeviceAuthFields): string {
  return [
    'v3',
    fields.deviceId,
    fields.clientId,
    fields.clientMode,
    fields.role,
    fields.scopes.join(','),
    String(fields.signedAt),
    fields.token ?? '',
    fields.nonce,
    normaliseField(fields.platform),
    normaliseField(fields.deviceFamily),
  ].join('|');
}

export function buildDeviceAuthPayloadV2(fields: DeviceAuthFields): string {
  return [
    'v2',
    fields.deviceId,
    fields.clientId,
    fields.clientMode,
    fields.role,
    fields.scopes.join(','),
    String(fields.signedAt),
    fields.token ?? '',
    fields.nonce,
  ].join('|');
}

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Accepts base64url or standard base64, with or without padding. Returns undefined when it is not base64. */
export function base64Decode(text: string): Uint8Array | undefined {
  const cleaned = text.trim().replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(cleaned)) return undefined;
  const padded = cleaned + '='.repeat((4 - (cleaned.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
