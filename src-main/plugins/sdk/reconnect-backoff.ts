import { sleep } from './rate-limited-api.js';

// Reaching a platform again after a failure (a network error, a 5xx, a dropped socket) without
// hammering it: waits that double from 0.5 s to 30 s, back to the first after a success. A
// failure the platform means for good (a rejected token) is not retried: the channel shows it.

/** Waits that double after each failure, up to `maxMs`; `reset` after a success. */
export class Backoff {
  private next: number;

  constructor(private readonly limits: { initialMs?: number; maxMs?: number } = {}) {
    this.next = limits.initialMs ?? 500;
  }

  /** The wait the next `wait` takes (for logs: "retrying in …"). */
  get ms(): number {
    return this.next;
  }

  /** Waits the current delay, then doubles it. Resolves early, never rejects, when `signal` aborts. */
  async wait(signal: AbortSignal): Promise<void> {
    await sleep(this.next, signal).catch(() => {});
    this.next = Math.min(this.next * 2, this.limits.maxMs ?? 30_000);
  }

  reset(): void {
    this.next = this.limits.initialMs ?? 500;
  }
}

/**
 * Calls `attempt` until it answers (e.g. the bot's identity at start), waiting with backoff
 * between failures. Each failure goes to `onFailure` (show it as the channel's status), with
 * `fatal` when `isFatal` says trying again would only repeat it; then, or when `signal` aborts,
 * this resolves undefined.
 */
export async function retryUntilAnswered<T>(
  attempt: () => Promise<T>,
  options: {
    signal: AbortSignal;
    isFatal(error: unknown): boolean;
    onFailure(error: unknown, fatal: boolean): void;
    backoff?: Backoff;
  },
): Promise<T | undefined> {
  const backoff = options.backoff ?? new Backoff();
  while (!options.signal.aborted) {
    try {
      return await attempt();
    } catch (error) {
      if (options.signal.aborted) return undefined;
      const fatal = options.isFatal(error);
      options.onFailure(error, fatal);
      if (fatal) return undefined;
      await backoff.wait(options.signal);
    }
  }
  return undefined;
}
