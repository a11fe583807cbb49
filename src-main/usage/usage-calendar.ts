const dayMs = 86_400_000;
const hourMs = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

function partsOf(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    secondsIntoDay: Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second),
  };
}

// The meter asks for today's key on every model call (its check and its record); formatting the
// instant costs more than the rest of the check. The last answer is reused for instants a little
// after it that cannot be on another local date: at most 10 minutes on, and more than an hour
// (a DST change's size) before that date's end.
const reuseMs = 10 * 60_000;
let lastDay: { timeZone: string; from: number; until: number; day: string } | undefined;

/** `YYYY-MM-DD` of an instant in a zone. */
export function dayKeyOf(ms: number, timeZone: string): string {
  if (lastDay && lastDay.timeZone === timeZone && ms >= lastDay.from && ms < lastDay.until) return lastDay.day;
  const { day, secondsIntoDay } = partsOf(ms, timeZone);
  const untilDateEnds = (86_400 - secondsIntoDay - 1) * 1000 - hourMs;
  lastDay = { timeZone, from: ms, until: ms + Math.max(0, Math.min(reuseMs, untilDateEnds)), day };
  return day;
}

/** `YYYY-MM` of a day key. */
export function monthKeyOf(day: string): string {
  return day.slice(0, 7);
}

/**
 * Every `YYYY-MM` that some instant from `from` to `to` has in some zone, without asking a zone:
 * a local time is never more than 14 hours from UTC, so these are the UTC months from 14 hours
 * before `from` to 14 hours after `to`.
 */
export function monthKeysInAnyZone(from: number, to: number): string[] {
  const start = new Date(from - 14 * hourMs);
  const end = new Date(to + 14 * hourMs);
  const last = end.getUTCFullYear() * 12 + end.getUTCMonth();
  const keys: string[] = [];
  for (let at = start.getUTCFullYear() * 12 + start.getUTCMonth(); at <= last; at++)
    keys.push(`${String(Math.floor(at / 12)).padStart(4, '0')}-${String((at % 12) + 1).padStart(2, '0')}`);
  return keys;
}

/** The first instant of the next local day (DST days are 23 or 25 hours long). */
export function nextDayStart(ms: number, timeZone: string): number {
  const { day, secondsIntoDay } = partsOf(ms, timeZone);
  let candidate = ms - (ms % 1000) - secondsIntoDay * 1000 + dayMs;
  while (dayKeyOf(candidate, timeZone) === day) candidate += hourMs;
  while (dayKeyOf(candidate - hourMs, timeZone) !== day) candidate -= hourMs;
  return candidate;
}

/** The first instant of the next local month. */
export function nextMonthStart(ms: number, timeZone: string): number {
  const month = monthKeyOf(dayKeyOf(ms, timeZone));
  let at = nextDayStart(ms, timeZone);
  while (monthKeyOf(dayKeyOf(at, timeZone)) === month) at = nextDayStart(at, timeZone);
  return at;
}

/** The `count` day keys ending today, oldest first. */
export function lastDayKeys(ms: number, timeZone: string, count: number): string[] {
  // From local noon, whole days back never skip or repeat a date across a DST change.
  const noon = ms - partsOf(ms, timeZone).secondsIntoDay * 1000 + 12 * hourMs;
  const keys: string[] = [];
  for (let back = count - 1; back >= 0; back--) keys.push(dayKeyOf(noon - back * dayMs, timeZone));
  return keys;
}

let machineZone: string | undefined;
/**
 * The machine's zone, when the config names none. Asked once per process: building an
 * Intl.DateTimeFormat costs about a millisecond, and the meter asks on every model call.
 */
export function systemTimeZone(): string {
  machineZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return machineZone;
}
