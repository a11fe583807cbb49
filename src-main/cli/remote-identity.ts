import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { deviceIdFromPublicKey } from '../gateway/auth/device-proof.js';
import { base64UrlEncode, buildDeviceAuthPayloadV3, type ConnectParams } from '../protocol/index.js';

const remotesSchema = z.record(
  z.string(),
  z.object({
    tlsFingerprint: z.string(),
    deviceToken: z.string().optional(),
    role: z.string().default('operator'),
    scopes: z.array(z.string()).default([]),
    pairedAtMs: z.number().optional(),
  }),
);
export type RemoteGateways = z.infer<typeof remotesSchema>;

export interface ClientDevice {
  id: string;
  publicKey: string;
  privateKey: KeyObject;
}

/**
 * This machine's identity as a *client* of remote gateways: an Ed25519 key and, per
 * gateway URL, the pinned certificate and the device token it was given. All 0600
 * under this HEARTH_HOME's identity/remote/.
 */
export class RemoteIdentityStore {
  private constructor(private readonly dir: string) {}

  static async open(identityDir: string): Promise<RemoteIdentityStore> {
    const dir = join(identityDir, 'remote');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new RemoteIdentityStore(dir);
  }

  async device(): Promise<ClientDevice> {
    const path = join(this.dir, 'device-key.pem');
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(await readFile(path, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(`cannot read the device key ${path}: ${(error as Error).message}`);
      privateKey = generateKeyPairSync('ed25519').privateKey;
      await writeFileAtomic(path, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), 0o600);
    }
    const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
    return { id: deviceIdFromPublicKey(raw), publicKey: base64UrlEncode(new Uint8Array(raw)), privateKey };
  }

  async remotes(): Promise<RemoteGateways> {
    try {
      return remotesSchema.parse(JSON.parse(await readFile(join(this.dir, 'remotes.json'), 'utf8')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`${join(this.dir, 'remotes.json')} is unreadable: ${(error as Error).message}`);
    }
  }

  async remember(url: string, entry: RemoteGateways[string]): Promise<void> {
    const all = await this.remotes();
    all[normaliseUrl(url)] = entry;
    await writeFileAtomic(join(this.dir, 'remotes.json'), `${JSON.stringify(all, null, 2)}\n`, 0o600);
  }

  async lookup(url: string): Promise<RemoteGateways[string] | undefined> {
    return (await this.remotes())[normaliseUrl(url)];
  }
}

export function normaliseUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/** connect params with a v3 device proof over the challenge. */
export function signedConnectParams(
  device: ClientDevice,
  challenge: { nonce: string; ts: number },
  options: {
    clientId?: 'cli' | 'hearth-cli';
    version: string;
    platform: string;
    role: string;
    scopes: string[];
    auth: NonNullable<ConnectParams['auth']>;
  },
): ConnectParams {
  const clientId = options.clientId ?? 'cli';
  const mode = 'cli' as const;
  const token = options.auth.token ?? options.auth.deviceToken ?? options.auth.bootstrapToken;
  const payload = buildDeviceAuthPayloadV3({
    deviceId: device.id,
    clientId,
    clientMode: mode,
    role: options.role,
    scopes: options.scopes,
    signedAt: challenge.ts,
    token,
    nonce: challenge.nonce,
    platform: options.platform,
  });
  return {
    minProtocol: 4,
    maxProtocol: 4,
    client: { id: clientId, version: options.version, platform: options.platform, mode },
    role: options.role,
    scopes: options.scopes,
    caps: [],
    auth: options.auth,
    device: {
      id: device.id,
      publicKey: device.publicKey,
      signature: base64UrlEncode(new Uint8Array(sign(null, Buffer.from(payload), device.privateKey))),
      signedAt: challenge.ts,
      nonce: challenge.nonce,
    },
  };
}
