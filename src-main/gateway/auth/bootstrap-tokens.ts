import type { Clock } from '../../base/clock.js';
import { generateToken, secretsEqual } from './gateway-secret.js';
import type { BootstrapTokens } from './handshake.js';

export const BOOTSTRAP_TOKEN_TTL_MS = 10 * 60_000;

interface Issued {
  token: string;
  expiresAt: number;
}

/**
 * Setup-code tokens: single use, short lived, good only for asking to pair. Kept in
 * memory on purpose — a restart voids every outstanding code.
 */
export class BootstrapTokenStore implements BootstrapTokens {
  private issued: Issued[] = [];

  constructor(private readonly clock: Clock) {}

  issue(ttlMs = BOOTSTRAP_TOKEN_TTL_MS): Issued {
    this.prune();
    const entry = { token: generateToken(24), expiresAt: this.clock.now() + ttlMs };
    this.issued.push(entry);
    return entry;
  }

  check(token: string): boolean {
    this.prune();
    return this.issued.some((entry) => secretsEqual(token, entry.token));
  }

  consume(token: string): boolean {
    this.prune();
    const index = this.issued.findIndex((entry) => secretsEqual(token, entry.token));
    if (index < 0) return false;
    this.issued.splice(index, 1);
    return true;
  }

  private prune(): void {
    const now = this.clock.now();
    this.issued = this.issued.filter((entry) => entry.expiresAt > now);
  }
}
