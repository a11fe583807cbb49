import type { Clock } from '../../base/clock.js';
import type { Disposable } from '../../base/disposable.js';
import { HearthError } from '../../base/errors.js';

export type RunStatus = 'running' | 'ok' | 'error' | 'aborted';

export interface RunRecord {
  runId: string;
  sessionKey: string;
  /** What the request asked for; the same runId with other input is a conflict. */
  fingerprint: string;
  status: RunStatus;
  startedAt: number;
  endedAt?: number;
  updatedAt: number;
  /** Final assistant text (all steps). */
  text: string;
  error?: Error;
  controller: AbortController;
  done: Promise<void>;
}

/** The same runId (idempotency key) was reused with a different request. */
export class RunConflictError extends HearthError {
  constructor(readonly runId: string) {
    super('conflict', `idempotency key "${runId}" was already used for a different request`, {
      details: { reason: 'chat-request-conflict', runId },
    });
    this.name = 'RunConflictError';
  }
}

export interface RunRegistryOptions {
  clock: Clock;
  /** Finished runs are forgotten this long after their last update (PROTOCOL.md §6: 5 min). */
  ttlMs?: number;
  maxEntries?: number;
}

/**
 * The in-memory dedupe store behind chat.send / agent: one record per runId. Active runs
 * never expire; finished ones expire after the TTL; past the cap the oldest finished go first.
 */
export class RunRegistry implements Disposable {
  private readonly runs = new Map<string, RunRecord>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly sweeper: Disposable;

  constructor(private readonly options: RunRegistryOptions) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.maxEntries = options.maxEntries ?? 1000;
    this.sweeper = options.clock.setInterval(() => this.sweep(), 60_000);
  }

  get(runId: string): RunRecord | undefined {
    const run = this.runs.get(runId);
    if (run && this.expired(run)) {
      this.runs.delete(runId);
      return undefined;
    }
    return run;
  }

  /** The existing run for this id (same request), or undefined when the id is free. Throws on conflict. */
  lookup(runId: string, fingerprint: string): RunRecord | undefined {
    const run = this.get(runId);
    if (run && run.fingerprint !== fingerprint) throw new RunConflictError(runId);
    return run;
  }

  add(run: RunRecord): void {
    this.sweep();
    this.runs.set(run.runId, run);
    if (this.runs.size > this.maxEntries) {
      const finished = [...this.runs.values()]
        .filter((r) => r.status !== 'running')
        .sort((a, b) => a.updatedAt - b.updatedAt);
      for (const old of finished.slice(0, this.runs.size - this.maxEntries)) this.runs.delete(old.runId);
    }
  }

  active(sessionKey?: string): RunRecord[] {
    return [...this.runs.values()].filter(
      (r) => r.status === 'running' && (!sessionKey || r.sessionKey === sessionKey),
    );
  }

  get size(): number {
    return this.runs.size;
  }

  sweep(): void {
    for (const run of this.runs.values()) if (this.expired(run)) this.runs.delete(run.runId);
  }

  dispose(): void {
    this.sweeper.dispose();
    for (const run of this.active()) run.controller.abort(new Error('runtime stopped'));
  }

  private expired(run: RunRecord): boolean {
    return run.status !== 'running' && this.options.clock.now() - run.updatedAt > this.ttlMs;
  }
}
