import { createPublicKey, type KeyObject, sign } from 'node:crypto';
import {
  base64UrlEncode,
  buildDeviceAuthPayloadV3,
  type ConnectChallenge,
  type ConnectParams,
  PROTOCOL_VERSION,
} from '../../protocol/index.js';
import { deviceIdFromPublicKey } from './device-proof.js';

// The client's half of the device proof that device-proof.ts verifies: one builder for every
// Hearth client that signs with a key of its own in Node (the desktop paired with another
// machine's gateway, `hearth --remote` in the CLI), so the two cannot drift apart on what they
// sign. The browser signs the same payload with WebCrypto (src-renderer/gateway/device-identity.ts).

/** An Ed25519 key as a gateway knows the device: the id (sha256 of the raw key) and the raw key in base64url. */
export interface ClientDevice {
  id: string;
  publicKey: string;
  privateKey: KeyObject;
}

/** The device a private key stands for. */
export function clientDeviceOf(privateKey: KeyObject): ClientDevice {
  // The raw 32-byte public key is the SPKI DER without its 12-byte Ed25519 header.
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
  return { id: deviceIdFromPublicKey(raw), publicKey: base64UrlEncode(new Uint8Array(raw)), privateKey };
}

export interface SignedConnectOptions {
  client: {
    id: ConnectParams['client']['id'];
    mode: ConnectParams['client']['mode'];
    version: string;
    platform: string;
    displayName?: string;
  };
  role: string;
  scopes: string[];
  auth: NonNullable<ConnectParams['auth']>;
  /** What the client can do beyond requests (`exec-approvals`: it answers approvals). */
  caps?: string[];
  locale?: string;
}

/**
 * `connect` params with a v3 device proof over the challenge. The token signed is the one the
 * gateway checks the proof against: the shared token, else the device token, else the setup
 * code's bootstrap token.
 */
export function signedConnectParams(
  device: ClientDevice,
  challenge: Pick<ConnectChallenge, 'nonce' | 'ts'>,
  options: SignedConnectOptions,
): ConnectParams {
  const { client } = options;
  const payload = buildDeviceAuthPayloadV3({
    deviceId: device.id,
    clientId: client.id,
    clientMode: client.mode,
    role: options.role,
    scopes: options.scopes,
    signedAt: challenge.ts,
    token: options.auth.token ?? options.auth.deviceToken ?? options.auth.bootstrapToken,
    nonce: challenge.nonce,
    platform: client.platform,
  });
  const params: ConnectParams = {
    minProtocol: PROTOCOL_VERSION,
    maxProtocol: PROTOCOL_VERSION,
    client: {
      id: client.id,
      version: client.version,
      platform: client.platform,
      mode: client.mode,
      ...(client.displayName ? { displayName: client.displayName } : {}),
    },
    role: options.role,
    scopes: options.scopes,
    caps: options.caps ?? [],
    auth: options.auth,
    device: {
      id: device.id,
      publicKey: device.publicKey,
      signature: base64UrlEncode(new Uint8Array(sign(null, Buffer.from(payload), device.privateKey))),
      signedAt: challenge.ts,
      nonce: challenge.nonce,
    },
  };
  if (options.locale) params.locale = options.locale;
  return params;
}
