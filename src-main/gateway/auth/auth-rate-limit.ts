import type { Clock } from '../../base/clock.js';

export interface AuthRateLimitOptions {
  maxFailures: number;
  windowMs: number;
  lockoutMs: number;
}

export const defaultAuthRateLimit: AuthRateLimitOptions = { maxFailures: 10, windowMs: 60_000, lockoutMs: 5 * 60_000 };

/**
 * Failed-auth counter per source: 10 failures in 60 s lock the source out for 5 minutes.
 * A source is whatever the caller keys it by (the handshake uses address + Origin, so one
 * page's failures never lock out another page or the Control UI).
 */
export class AuthRateLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly options: AuthRateLimitOptions = defaultAuthRateLimit,
  ) {}

  /** Milliseconds left in a lockout, or 0. */
  lockedFor(source: string): number {
    const until = this.lockedUntil.get(source);
    if (until === undefined) return 0;
    const left = until - this.clock.now();
    if (left <= 0) {
      this.lockedUntil.delete(source);
      return 0;
    }
    return left;
  }

  recordFailure(source: string): void {
    const now = this.clock.now();
    const recent = (this.failures.get(source) ?? []).filter((t) => now - t < this.options.windowMs);
    recent.push(now);
    this.failures.set(source, recent);
    if (recent.length >= this.options.maxFailures) {
      this.lockedUntil.set(source, now + this.options.lockoutMs);
      this.failures.delete(source);
    }
    // Bounded memory when many sources (many Origins) fail: forget expired lockouts, then the oldest.
    if (this.failures.size > 10_000) this.failures.clear();
    if (this.lockedUntil.size > 10_000) {
      for (const [key, until] of this.lockedUntil) if (until <= now) this.lockedUntil.delete(key);
      while (this.lockedUntil.size > 10_000) this.lockedUntil.delete(this.lockedUntil.keys().next().value!);
    }
  }

  recordSuccess(source: string): void {
    this.failures.delete(source);
  }
}
