import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { type ClientDevice, clientDeviceOf, signedConnectParams } from '../gateway/auth/client-device.js';
import type { ConnectParams } from '../protocol/index.js';

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

export type { ClientDevice };

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
    return clientDeviceOf(privateKey);
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

/** The CLI's `connect` to a remote gateway, with a v3 device proof over the challenge. */
export function cliConnectParams(
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
  return signedConnectParams(device, challenge, {
    client: { id: options.clientId ?? 'cli', mode: 'cli', version: options.version, platform: options.platform },
    role: options.role,
    scopes: options.scopes,
    auth: options.auth,
  });
}
