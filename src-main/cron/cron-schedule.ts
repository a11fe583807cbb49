import { Cron } from 'croner';
import { HearthError } from '../base/errors.js';

/**
 * When a job runs: a cron expression read in a time zone (default: the machine's), a fixed
 * interval (`every 30m`) counted from an anchor, or once (`at 2026-12-24T08:00:00+01:00`).
 */
export type CronSchedule =
  | { kind: 'cron'; expr: string; tz?: string }
  | { kind: 'every'; everyMs: number; anchorMs: number }
  | { kind: 'at'; atMs: number };

const unitMs: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Shorter intervals would turn a scheduler into a busy loop of model calls. */
const minEveryMs = 60_000;

function scheduleError(text: string, why: string): HearthError {
  return new HearthError('bad_request', `schedule ${JSON.stringify(text)}: ${why}`);
}

/** Throws a bad_request naming the zone when the runtime's ICU does not know it. */
export function assertTimeZone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new HearthError(
      'bad_request',
      `unknown time zone ${JSON.stringify(tz)} (use an IANA name such as America/New_York)`,
    );
  }
  return tz;
}

/** `30m`, `1h30m`, `2d`: the sum of its parts in ms. */
function parseDuration(text: string, source: string): number {
  const parts = [...text.matchAll(/(\d+)\s*([smhd])/g)];
  const rebuilt = parts.map((part) => part[0].replace(/\s+/g, '')).join('');
  if (parts.length === 0 || rebuilt !== text.replace(/\s+/g, '')) {
    throw scheduleError(source, 'an interval is a number and a unit (s, m, h, d), e.g. "every 30m" or "every 1h30m"');
  }
  return parts.reduce((sum, part) => sum + Number(part[1]) * unitMs[part[2]!]!, 0);
}

/**
 * Reads the three spellings. `now` anchors an interval (its runs are now + k·interval). An `at`
 * time must say its offset (`Z` or `+01:00`): a bare local time would be read differently on
 * another machine.
 */
export function parseSchedule(text: string, options: { tz?: string; now: number }): CronSchedule {
  const source = text.trim();
  if (source === '') throw scheduleError(text, 'empty (use a cron expression, "every 30m" or "at <ISO time>")');
  const every = /^every\s+(.+)$/i.exec(source);
  if (every) {
    const everyMs = parseDuration(every[1]!, source);
    if (everyMs < minEveryMs) throw scheduleError(source, 'the shortest interval is 1m');
    return { kind: 'every', everyMs, anchorMs: options.now };
  }
  const at = /^at\s+(.+)$/i.exec(source);
  if (at) {
    const iso = at[1]!.trim();
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(iso)) {
      throw scheduleError(
        source,
        'a one-shot time is an ISO time with its offset, e.g. "at 2026-12-24T08:00:00+01:00"',
      );
    }
    const atMs = Date.parse(iso);
    if (Number.isNaN(atMs)) throw scheduleError(source, `${iso} is not a real date`);
    return { kind: 'at', atMs };
  }
  const fields = source.split(/\s+/).length;
  if (fields < 5 || fields > 6) {
    throw scheduleError(source, 'not a cron expression (5 or 6 fields), "every <interval>" or "at <ISO time>"');
  }
  const tz = options.tz === undefined ? undefined : assertTimeZone(options.tz);
  try {
    new Cron(source, { timezone: tz, paused: true });
  } catch (error) {
    throw scheduleError(source, error instanceof Error ? error.message : String(error));
  }
  return { kind: 'cron', expr: source, ...(tz ? { tz } : {}) };
}

/** The first instant strictly after `afterMs`, or undefined when the schedule has no more runs. */
export function nextRunAfter(schedule: CronSchedule, afterMs: number): number | undefined {
  switch (schedule.kind) {
    case 'at':
      return schedule.atMs > afterMs ? schedule.atMs : undefined;
    case 'every': {
      if (afterMs < schedule.anchorMs) return schedule.anchorMs + schedule.everyMs;
      const steps = Math.floor((afterMs - schedule.anchorMs) / schedule.everyMs) + 1;
      return schedule.anchorMs + steps * schedule.everyMs;
    }
    case 'cron': {
      const next = new Cron(schedule.expr, { timezone: schedule.tz, paused: true }).nextRun(new Date(afterMs));
      return next ? next.getTime() : undefined;
    }
  }
}

/** How a person reads it back (lists, the CLI). */
export function describeSchedule(schedule: CronSchedule): string {
  switch (schedule.kind) {
    case 'at':
      return `at ${new Date(schedule.atMs).toISOString()}`;
    case 'every': {
      const units: [string, number][] = [
        ['d', unitMs.d!],
        ['h', unitMs.h!],
        ['m', unitMs.m!],
        ['s', unitMs.s!],
      ];
      let rest = schedule.everyMs;
      let text = '';
      for (const [unit, ms] of units) {
        const count = Math.floor(rest / ms);
        if (count > 0) text += `${count}${unit}`;
        rest -= count * ms;
      }
      return `every ${text}`;
    }
    case 'cron':
      return schedule.tz ? `${schedule.expr} (${schedule.tz})` : schedule.expr;
  }
}
