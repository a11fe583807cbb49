import type { Clock } from '../base/clock.js';

export interface WriteBudgetOptions {
  /** Writes allowed in a burst. */
  capacity: number;
  /** Sustained writes per minute. */
  refillPerMinute: number;
}

export const defaultWriteBudget: WriteBudgetOptions = { capacity: 20, refillPerMinute: 60 };

/**
 * Token bucket for control-plane writes on one connection. When empty, the caller is
 * told exactly how long to wait (`retryAfterMs`) instead of being silently delayed.
 */
export class WriteBudget {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly clock: Clock,
    private readonly options: WriteBudgetOptions = defaultWriteBudget,
  ) {
    this.tokens = options.capacity;
    this.updatedAt = clock.now();
  }

  /** Takes one write; returns 0 when allowed, else the milliseconds until one is available. */
  take(): number {
    const now = this.clock.now();
    const perMs = this.options.refillPerMinute / 60_000;
    this.tokens = Math.min(this.options.capacity, this.tokens + (now - this.updatedAt) * perMs);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - this.tokens) / perMs);
  }
}
