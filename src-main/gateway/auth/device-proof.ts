import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import {
  base64Decode,
  buildDeviceAuthPayloadV2,
  buildDeviceAuthPayloadV3,
  bytesToHex,
  type DetailCode,
} from '../../protocol/index.js';

/** DER prefix that wraps a raw 32-byte Ed25519 key into SPKI, so node:crypto can use it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
export const SIGNATURE_MAX_SKEW_MS = 120_000;

export interface DeviceProof {
  id: string;
  publicKey: string;
  signature: string;
  signedAt: number;
  nonce: string;
}

export interface DeviceProofContext {
  clientId: string;
  clientMode: string;
  role: string;
  scopes: readonly string[];
  token?: string;
  platform?: string;
  deviceFamily?: string;
  /** The nonce this socket's challenge carried. */
  challengeNonce: string;
  now: number;
}

export type DeviceProofResult =
  | { ok: true; deviceId: string; publicKeyRaw: Uint8Array; version: 'v3' | 'v2' }
  | { ok: false; message: string; code: DetailCode };

export function deviceIdFromPublicKey(raw: Uint8Array): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** Raw 32 bytes from base64url, base64 or a PEM SPKI block; undefined when it is none of them. */
export function decodePublicKey(text: string): Uint8Array | undefined {
  if (text.includes('BEGIN PUBLIC KEY')) {
    try {
      const der = createPublicKey(text).export({ format: 'der', type: 'spki' });
      return der.length === 44 ? new Uint8Array(der.subarray(12)) : undefined;
    } catch {
      return undefined;
    }
  }
  const bytes = base64Decode(text);
  return bytes && bytes.length === 32 ? bytes : undefined;
}

export function publicKeyObject(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/**
 * Verifies a connect's device proof with the checks in PROTOCOL.md §3, in that
 * order, so a client learns the first thing that is wrong.
 */
export function verifyDeviceProof(device: DeviceProof, context: DeviceProofContext): DeviceProofResult {
  const raw = decodePublicKey(device.publicKey);
  if (raw && deviceIdFromPublicKey(raw) !== device.id.toLowerCase()) {
    return { ok: false, message: 'device identity mismatch', code: 'DEVICE_AUTH_DEVICE_ID_MISMATCH' };
  }
  if (Math.abs(context.now - device.signedAt) > SIGNATURE_MAX_SKEW_MS) {
    return { ok: false, message: 'device signature expired', code: 'DEVICE_AUTH_SIGNATURE_EXPIRED' };
  }
  if (device.nonce.trim() === '') {
    return { ok: false, message: 'device nonce required', code: 'DEVICE_AUTH_NONCE_REQUIRED' };
  }
  if (device.nonce !== context.challengeNonce) {
    return { ok: false, message: 'device nonce mismatch', code: 'DEVICE_AUTH_NONCE_MISMATCH' };
  }
  if (!raw) return { ok: false, message: 'device public key invalid', code: 'DEVICE_AUTH_PUBLIC_KEY_INVALID' };
  const signature = base64Decode(device.signature);
  if (signature?.length !== 64) {
    return { ok: false, message: 'device signature invalid', code: 'DEVICE_AUTH_SIGNATURE_INVALID' };
  }
  let key: KeyObject;
  try {
    key = publicKeyObject(raw);
  } catch {
    return { ok: false, message: 'device public key invalid', code: 'DEVICE_AUTH_PUBLIC_KEY_INVALID' };
  }
  const fields = {
    deviceId: device.id,
    clientId: context.clientId,
    clientMode: context.clientMode,
    role: context.role,
    scopes: context.scopes,
    signedAt: device.signedAt,
    token: context.token,
    nonce: device.nonce,
    platform: context.platform,
    deviceFamily: context.deviceFamily,
  };
  for (const [version, payload] of [
    ['v3', buildDeviceAuthPayloadV3(fields)],
    ['v2', buildDeviceAuthPayloadV2(fields)],
  ] as const) {
    if (verify(null, Buffer.from(payload, 'utf8'), key, signature)) {
      return {
        ok: true,
        deviceId: bytesToHex(new Uint8Array(Buffer.from(device.id, 'hex'))),
        publicKeyRaw: raw,
        version,
      };
    }
  }
  return { ok: false, message: 'device signature invalid', code: 'DEVICE_AUTH_SIGNATURE_INVALID' };
}
