import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { GatewayError } from '../protocol/index.js';

interface Entry {
  fingerprint: string;
  /** Settles to the first call's outcome; retries share it. */
  outcome: Promise<unknown>;
  settled: boolean;
  touchedAt: number;
}

export interface IdempotencyOptions {
  ttlMs: number;
  maxEntries: number;
  sweepIntervalMs: number;
}

export const defaultIdempotencyOptions: IdempotencyOptions = {
  ttlMs: 5 * 60_000,
  maxEntries: 1000,
  sweepIntervalMs: 60_000,
};

/**
 * Dedupe store for side-effect methods (PROTOCOL.md §6): in memory; an entry lives 5
 * minutes after its last update unless still running; at most 1000 (oldest dropped).
 * A retry gets the first call's result (or error) and never repeats the effect.
 */
export class IdempotencyCache implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: Disposable;

  constructor(
    private readonly clock: Clock,
    private readonly options: IdempotencyOptions = defaultIdempotencyOptions,
  ) {
    this.sweeper = clock.setInterval(() => this.sweep(), options.sweepIntervalMs);
  }

  get size(): number {
    return this.entries.size;
  }

  run(method: string, key: string, params: unknown, execute: () => Promise<unknown>): Promise<unknown> {
    const id = `${method}\u0000${key}`;
    const fingerprint = stableStringify(withoutKey(params));
    const existing = this.entries.get(id);
    if (existing && !this.expired(existing)) {
      if (existing.fingerprint !== fingerprint) {
        return Promise.reject(
          new GatewayError(
            'INVALID_REQUEST',
            `idempotencyKey ${key} was already used for a different ${method} request`,
            {
              reason: 'request-conflict',
            },
          ),
        );
      }
      existing.touchedAt = this.clock.now();
      return existing.outcome;
    }
    const entry: Entry = { fingerprint, outcome: Promise.resolve(), settled: false, touchedAt: this.clock.now() };
    entry.outcome = execute().finally(() => {
      entry.settled = true;
      entry.touchedAt = this.clock.now();
    });
    // Keep the rejection observed so a failed first call does not crash on an unhandled rejection.
    entry.outcome.catch(() => {});
    this.entries.delete(id);
    this.entries.set(id, entry);
    this.evictOverflow();
    return entry.outcome;
  }

  private expired(entry: Entry): boolean {
    return entry.settled && this.clock.now() - entry.touchedAt > this.options.ttlMs;
  }

  private evictOverflow(): void {
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.options.maxEntries) break;
      if (entry.settled) this.entries.delete(id);
    }
  }

  sweep(): void {
    for (const [id, entry] of this.entries) if (this.expired(entry)) this.entries.delete(id);
  }

  dispose(): void {
    this.sweeper.dispose();
    this.entries.clear();
  }
}

function withoutKey(params: unknown): unknown {
  if (!params || typeof params !== 'object') return params;
  const { idempotencyKey: _ignored, ...rest } = params as Record<string, unknown>;
  return rest;
}

export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .filter((k) => record[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${stableStringify(record[k])}`)
    .join(',')}}`;
}
