import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import type { CronJob } from './cron-job.js';

/** `once`: a job whose instants passed while the machine slept (or Hearth was off) runs once on wake; `skip`: it waits for its next instant. */
export type CronCatchUp = 'once' | 'skip';

/** A run this late is a catch-up, not an on-time run (timers fire a little late even when awake). */
export const catchUpGraceMs = 60_000;
/**
 * The longest single timer. Re-checking at least hourly keeps a long wait below the timer
 * limit (~24.8 days) and notices a clock that jumped (sleep, a time-zone or DST change).
 */
export const maxTimerMs = 3_600_000;

export interface DueJob {
  job: CronJob;
  /** The instant the schedule named (the oldest missed one, for a catch-up). */
  scheduledAtMs: number;
  trigger: 'schedule' | 'catch-up';
  /** catchUp `skip` and the run is late: record it, do not run it. */
  skip: boolean;
}

/** Jobs whose next instant has come. However many instants were missed, a job is due once. */
export function dueJobs(jobs: readonly CronJob[], now: number, catchUp: CronCatchUp): DueJob[] {
  const due: DueJob[] = [];
  for (const job of jobs) {
    if (!job.enabled || job.nextRunAtMs === undefined || job.nextRunAtMs > now) continue;
    const late = now - job.nextRunAtMs > catchUpGraceMs;
    due.push({
      job,
      scheduledAtMs: job.nextRunAtMs,
      trigger: late ? 'catch-up' : 'schedule',
      skip: late && catchUp === 'skip',
    });
  }
  return due;
}

/**
 * One timer for the earliest next run (none at all when nothing is scheduled: an idle
 * scheduler costs nothing). Driven by the injected clock, never by global timers.
 */
export class CronTimer implements Disposable {
  private timer: Disposable | undefined;
  private disposed = false;
  private wakeAt: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly onFire: () => void,
  ) {}

  /** When the timer will next look (epoch ms), if armed. */
  get nextWakeAtMs(): number | undefined {
    return this.wakeAt;
  }

  arm(jobs: readonly CronJob[]): void {
    this.timer?.dispose();
    this.timer = undefined;
    this.wakeAt = undefined;
    if (this.disposed) return;
    let earliest: number | undefined;
    for (const job of jobs) {
      if (!job.enabled || job.nextRunAtMs === undefined) continue;
      if (earliest === undefined || job.nextRunAtMs < earliest) earliest = job.nextRunAtMs;
    }
    if (earliest === undefined) return;
    const now = this.clock.now();
    const delay = Math.min(Math.max(0, earliest - now), maxTimerMs);
    this.wakeAt = now + delay;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.wakeAt = undefined;
      this.onFire();
    }, delay);
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.dispose();
    this.timer = undefined;
  }
}
