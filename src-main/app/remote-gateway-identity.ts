import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { type ClientDevice, clientDeviceOf, signedConnectParams } from '../gateway/auth/client-device.js';
import type { ConnectChallenge, ConnectParams } from '../protocol/index.js';
import type { SecretStore } from '../secrets/index.js';

/** The secret-store account of this desktop's Ed25519 key as a client of other gateways. */
export const DEVICE_KEY_ACCOUNT = 'desktop-remote:device-key';
/** The secret-store account of the device token one remote gateway issued. */
export const deviceTokenAccount = (gatewayId: string) => `desktop-remote:device-token:${gatewayId}`;

/** What is remembered about a paired gateway in plain JSON: nothing secret (the token is in the secret store). */
const gatewaySchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  /** The wss:// addresses from the pairing code, the one that answered first. */
  urls: z.array(z.string().startsWith('wss://')).min(1),
  /** 64 lower-case hex digits: the certificate this desktop trusts for that gateway, and no other. */
  tlsFingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string().optional(),
  scopes: z.array(z.string()),
  pairedAt: z.number(),
});
const fileSchema = z.object({
  version: z.literal(1),
  /** "local" (this computer's own gateway) or the id of a paired gateway. */
  active: z.string(),
  gateways: z.array(gatewaySchema),
});

export type RemoteGatewayRecord = z.infer<typeof gatewaySchema>;
export type RemoteGatewaysFile = z.infer<typeof fileSchema>;

/** This desktop's key as other gateways know it. */
export type DesktopDevice = ClientDevice;

/**
 * This desktop's identity as a client of other Hearth gateways: one Ed25519 key and,
 * per gateway, its device token, both only in the secret store (keychain / safeStorage);
 * the list of paired gateways (addresses, pin, name, scopes) in
 * `identity/desktop-remotes.json`, which holds nothing that lets anyone connect.
 */
export class RemoteGatewayIdentity {
  constructor(
    private readonly secrets: SecretStore,
    private readonly identityDir: string,
  ) {}

  get file(): string {
    return join(this.identityDir, 'desktop-remotes.json');
  }

  async device(): Promise<DesktopDevice> {
    const stored = await this.secrets.get(DEVICE_KEY_ACCOUNT);
    let privateKey: KeyObject;
    if (stored) {
      try {
        privateKey = createPrivateKey(stored);
      } catch (error) {
        throw new Error(
          `the desktop's device key in the secret store ("${DEVICE_KEY_ACCOUNT}") is not a private key: ${(error as Error).message}`,
        );
      }
    } else {
      privateKey = generateKeyPairSync('ed25519').privateKey;
      await this.secrets.set(DEVICE_KEY_ACCOUNT, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    }
    return clientDeviceOf(privateKey);
  }

  async read(): Promise<RemoteGatewaysFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, active: 'local', gateways: [] };
      throw new Error(`cannot read ${this.file}: ${(error as Error).message}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`${this.file} is not JSON; fix it or delete it to forget the paired gateways`);
    }
    const parsed = fileSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${this.file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
    }
    return parsed.data;
  }

  async write(file: RemoteGatewaysFile): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(file, null, 2)}\n`, 0o600);
  }

  token(gatewayId: string): Promise<string | undefined> {
    return this.secrets.get(deviceTokenAccount(gatewayId));
  }

  saveToken(gatewayId: string, token: string): Promise<void> {
    return this.secrets.set(deviceTokenAccount(gatewayId), token);
  }

  forgetToken(gatewayId: string): Promise<boolean> {
    return this.secrets.delete(deviceTokenAccount(gatewayId));
  }
}

/** A gateway's id: the start of its certificate pin, stable for as long as the pin is. */
export function gatewayIdOf(tlsFingerprint: string): string {
  return tlsFingerprint.slice(0, 16);
}

/** The desktop's `connect` to a remote gateway: Hearth desktop in UI mode, with a v3 device proof over the challenge. */
export function desktopConnectParams(
  device: ClientDevice,
  challenge: Pick<ConnectChallenge, 'nonce' | 'ts'>,
  options: {
    version: string;
    platform: string;
    scopes: string[];
    auth: { deviceToken?: string; bootstrapToken?: string };
    displayName?: string;
    locale?: string;
  },
): ConnectParams {
  return signedConnectParams(device, challenge, {
    client: {
      id: 'hearth-desktop',
      mode: 'ui',
      version: options.version,
      platform: options.platform,
      ...(options.displayName ? { displayName: options.displayName } : {}),
    },
    role: 'operator',
    scopes: options.scopes,
    caps: ['exec-approvals'],
    auth: options.auth,
    ...(options.locale ? { locale: options.locale } : {}),
  });
}
