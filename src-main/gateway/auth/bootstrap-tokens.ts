import type { Clock } from '../../base/clock.js';
import { generateToken, secretsEqual } from './gateway-secret.js';
import type { BootstrapTokens, SetupCodeGrant } from './handshake.js';

export const BOOTSTRAP_TOKEN_TTL_MS = 10 * 60_000;

/** What a setup code lets a phone ask for when the issuer names nothing else. */
export const DEFAULT_SETUP_CODE_SCOPES = ['operator.read', 'operator.write', 'operator.approvals'];

interface Issued extends SetupCodeGrant {
  token: string;
  expiresAt: number;
}

export interface IssueOptions {
  ttlMs?: number;
  /** The most a device pairing with this code may ask for (checked against the issuer's own scopes by the caller). */
  scopes?: readonly string[];
  /** The device that asked for the code, when it was one: it may not approve what the code brings in. */
  issuerDeviceId?: string;
}

/**
 * Setup-code tokens: single use, short lived, good only for asking to pair, and only for
 * the scopes they were issued with. The first device that uses a code claims it: a code
 * opens at most one pending request. Kept in memory on purpose — a restart voids every
 * outstanding code.
 */
export class BootstrapTokenStore implements BootstrapTokens {
  private issued: Issued[] = [];

  constructor(private readonly clock: Clock) {}

  issue(options: IssueOptions = {}): Issued {
    this.prune();
    const entry: Issued = {
      token: generateToken(24),
      expiresAt: this.clock.now() + (options.ttlMs ?? BOOTSTRAP_TOKEN_TTL_MS),
      scopes: [...(options.scopes ?? DEFAULT_SETUP_CODE_SCOPES)],
      issuerDeviceId: options.issuerDeviceId,
    };
    this.issued.push(entry);
    return entry;
  }

  check(token: string): boolean {
    return this.find(token) !== undefined;
  }

  grant(token: string): SetupCodeGrant | undefined {
    const entry = this.find(token);
    return entry && { scopes: [...entry.scopes], issuerDeviceId: entry.issuerDeviceId, claimedBy: entry.claimedBy };
  }

  claim(token: string, deviceId: string): boolean {
    const entry = this.find(token);
    if (!entry) return false;
    if (entry.claimedBy !== undefined && entry.claimedBy !== deviceId) return false;
    entry.claimedBy = deviceId;
    return true;
  }

  consume(token: string): boolean {
    this.prune();
    const index = this.issued.findIndex((entry) => secretsEqual(token, entry.token));
    if (index < 0) return false;
    this.issued.splice(index, 1);
    return true;
  }

  private find(token: string): Issued | undefined {
    this.prune();
    return this.issued.find((entry) => secretsEqual(token, entry.token));
  }

  private prune(): void {
    const now = this.clock.now();
    this.issued = this.issued.filter((entry) => entry.expiresAt > now);
  }
}
