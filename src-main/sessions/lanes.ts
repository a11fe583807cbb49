import { createKeyedSerializer } from './keyed-serializer.js';

/**
 * Two locks per turn: the session lane (one turn at a time per session key, FIFO)
 * and a global lane chosen by who started the work, each with its own concurrency
 * limit, so a pile of cron jobs can never take the slots a user's chat needs and
 * subagents have their own budget. Nested runs (e.g. a review started from inside
 * another run) get their own lane so they never wait on the slot their parent holds.
 */

export const laneNames = ['default', 'nested', 'subagent', 'cron'] as const;
export type LaneName = (typeof laneNames)[number];
export type LaneLimits = Record<LaneName, number>;

export const defaultLaneLimits: LaneLimits = { default: 4, nested: 2, subagent: 8, cron: 1 };

export interface LaneStats {
  active: number;
  queued: number;
  limit: number;
}

export interface LaneRunOptions {
  /** Aborting while still queued gives up the place in line (the job never starts). */
  signal?: AbortSignal;
}

export interface Lanes {
  run<T>(sessionKey: string, lane: LaneName, fn: () => Promise<T>, options?: LaneRunOptions): Promise<T>;
  stats(): Record<LaneName, LaneStats>;
}

export class LaneAbortedError extends Error {
  constructor(lane: LaneName, sessionKey: string) {
    super(`turn for ${sessionKey} was aborted while waiting in the ${lane} lane`);
    this.name = 'LaneAbortedError';
  }
}

interface Waiter {
  start(): void;
}

class Semaphore {
  active = 0;
  readonly waiting: Waiter[] = [];

  constructor(readonly limit: number) {}

  acquire(signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
    if (signal?.aborted) return Promise.reject(onAbort());
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', abort);
          this.active++;
          resolve();
        },
      };
      const abort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(onAbort());
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.waiting.push(waiter);
    });
  }

  release(): void {
    this.active--;
    this.waiting.shift()?.start();
  }
}

export function createLanes(options: { limits?: Partial<LaneLimits> } = {}): Lanes {
  const limits: LaneLimits = { ...defaultLaneLimits };
  for (const [lane, limit] of Object.entries(options.limits ?? {})) {
    if (!(laneNames as readonly string[]).includes(lane)) {
      throw new Error(`unknown lane "${lane}" in lane limits (expected ${laneNames.join(', ')})`);
    }
    if (limit === undefined) continue;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new Error(`lane limit for "${lane}" must be a positive integer (got ${limit})`);
    }
    limits[lane as LaneName] = limit;
  }
  const global = Object.fromEntries(laneNames.map((lane) => [lane, new Semaphore(limits[lane])])) as Record<
    LaneName,
    Semaphore
  >;
  const sessions = createKeyedSerializer();

  return {
    run(sessionKey, lane, fn, runOptions = {}) {
      const semaphore = global[lane];
      if (!semaphore) throw new Error(`unknown lane "${lane}" (expected ${laneNames.join(', ')})`);
      const { signal } = runOptions;
      const aborted = () => new LaneAbortedError(lane, sessionKey);
      // Session lane first: the global slot is only taken once this session's turn is next.
      return sessions.run(sessionKey, async () => {
        await semaphore.acquire(signal, aborted);
        try {
          return await fn();
        } finally {
          semaphore.release();
        }
      });
    },
    stats() {
      return Object.fromEntries(
        laneNames.map((lane) => [
          lane,
          { active: global[lane].active, queued: global[lane].waiting.length, limit: global[lane].limit },
        ]),
      ) as Record<LaneName, LaneStats>;
    },
  };
}
