import { createHash, randomUUID } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { holdsScopes } from '../../protocol/index.js';
import { generateToken, secretsEqual } from './gateway-secret.js';

const deviceTokenSchema = z.object({
  role: z.string(),
  scopes: z.array(z.string()),
  /** SHA-256 of the token: the token itself is never stored. */
  tokenHash: z.string(),
  issuedAtMs: z.number(),
});

const pairedDeviceSchema = z.object({
  deviceId: z.string(),
  publicKey: z.string(),
  role: z.string(),
  scopes: z.array(z.string()),
  clientId: z.string(),
  clientMode: z.string(),
  displayName: z.string().optional(),
  platform: z.string().optional(),
  remoteAddress: z.string().optional(),
  pairedAtMs: z.number(),
  approvedVia: z.enum(['silent', 'operator', 'cli', 'desktop']),
  lastSeenMs: z.number().optional(),
  /** Approved by a person while the device was away: it gets its token on the next connect. */
  awaitingToken: z.boolean().optional(),
  tokens: z.array(deviceTokenSchema),
});

const registryFileSchema = z.object({ version: z.literal(1), devices: z.array(pairedDeviceSchema) });

export type PairedDevice = z.infer<typeof pairedDeviceSchema>;
export type ApprovedVia = PairedDevice['approvedVia'];

export interface DeviceTokenCheck {
  ok: boolean;
  reason?: 'unknown-device' | 'token-mismatch' | 'scope-mismatch';
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Paired devices and their tokens (identity/devices.json, 0600). Tokens are stored as
 * hashes, handed out once. Revocation is immediate: callers close live sockets.
 */
export class DeviceRegistry {
  private devices = new Map<string, PairedDevice>();
  private writeChain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  static async open(identityDir: string, clock: Clock, log: Logger): Promise<DeviceRegistry> {
    const registry = new DeviceRegistry(join(identityDir, 'devices.json'), clock, log);
    await registry.load();
    return registry;
  }

  private async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const parsed = registryFileSchema.safeParse(safeJson(text));
    if (!parsed.success) {
      // Keep the unreadable file for the user; start empty so the gateway still runs (devices re-pair).
      const aside = `${this.file}.corrupt-${this.clock.now()}`;
      await rename(this.file, aside);
      this.log.error('device registry unreadable; moved aside, devices must pair again', { file: aside });
      return;
    }
    for (const device of parsed.data.devices) this.devices.set(device.deviceId, device);
  }

  private persist(): Promise<void> {
    const snapshot = JSON.stringify({ version: 1, devices: [...this.devices.values()] }, null, 2);
    this.writeChain = this.writeChain.then(() => writeFileAtomic(this.file, snapshot, 0o600));
    return this.writeChain;
  }

  list(): PairedDevice[] {
    return [...this.devices.values()].map((device) => ({ ...device, tokens: device.tokens.map((t) => ({ ...t })) }));
  }

  get(deviceId: string): PairedDevice | undefined {
    return this.devices.get(deviceId);
  }

  /** Pairs (or re-pairs) a device and returns a fresh token for its role. */
  async approve(
    device: Omit<PairedDevice, 'pairedAtMs' | 'tokens' | 'lastSeenMs' | 'awaitingToken'>,
    options: { deliverOnNextConnect?: boolean } = {},
  ): Promise<{ device: PairedDevice; token: string }> {
    const now = this.clock.now();
    const token = generateToken(32);
    const existing = this.devices.get(device.deviceId);
    const record: PairedDevice = {
      ...device,
      pairedAtMs: existing?.pairedAtMs ?? now,
      lastSeenMs: now,
      awaitingToken: options.deliverOnNextConnect === true,
      tokens: [
        ...(existing?.tokens.filter((t) => t.role !== device.role) ?? []),
        { role: device.role, scopes: device.scopes, tokenHash: hashToken(token), issuedAtMs: now },
      ],
    };
    this.devices.set(device.deviceId, record);
    await this.persist();
    return { device: record, token };
  }

  checkToken(deviceId: string, role: string, token: string, requestedScopes: readonly string[]): DeviceTokenCheck {
    const device = this.devices.get(deviceId);
    if (!device) return { ok: false, reason: 'unknown-device' };
    const entry = device.tokens.find((t) => t.role === role);
    if (!entry || !secretsEqual(hashToken(token), entry.tokenHash)) return { ok: false, reason: 'token-mismatch' };
    // A token never reaches past what was granted with it (admin covers the rest, as everywhere).
    if (!holdsScopes(entry.scopes, requestedScopes)) return { ok: false, reason: 'scope-mismatch' };
    return { ok: true };
  }

  async rotate(
    deviceId: string,
    role: string,
    scopes?: string[],
  ): Promise<{ token: string; scopes: string[]; rotatedAtMs: number }> {
    const device = this.devices.get(deviceId);
    if (!device) throw new Error(`unknown device: ${deviceId}`);
    const entry = device.tokens.find((t) => t.role === role);
    const grantScopes = scopes ?? entry?.scopes ?? device.scopes;
    const token = generateToken(32);
    const rotatedAtMs = this.clock.now();
    device.awaitingToken = false;
    device.tokens = [
      ...device.tokens.filter((t) => t.role !== role),
      { role, scopes: grantScopes, tokenHash: hashToken(token), issuedAtMs: rotatedAtMs },
    ];
    await this.persist();
    return { token, scopes: grantScopes, rotatedAtMs };
  }

  /** The device gets a fresh token on its next connect (after an operator rotated it). */
  async markAwaitingToken(deviceId: string): Promise<void> {
    const device = this.devices.get(deviceId);
    if (!device) return;
    device.awaitingToken = true;
    await this.persist();
  }

  async revoke(deviceId: string, role: string): Promise<boolean> {
    const device = this.devices.get(deviceId);
    if (!device) return false;
    const before = device.tokens.length;
    device.tokens = device.tokens.filter((t) => t.role !== role);
    await this.persist();
    return device.tokens.length !== before;
  }

  async remove(deviceId: string): Promise<boolean> {
    const removed = this.devices.delete(deviceId);
    if (removed) await this.persist();
    return removed;
  }

  async touch(deviceId: string): Promise<void> {
    const device = this.devices.get(deviceId);
    if (device) device.lastSeenMs = this.clock.now();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function newRequestId(): string {
  return randomUUID();
}
