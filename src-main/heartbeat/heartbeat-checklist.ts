import { type CronSchedule, nextRunAfter, parseSchedule } from '../cron/index.js';

/**
 * HEARTBEAT.md is the checklist. A line `- <what to check> @ <schedule>` is an item with its
 * own rhythm, in the cron capability's grammar (`@ every 2h`, `@ 0 9 * * 1-5`); a line
 * without `@` is guidance for the heartbeat turn, never a reason to call the model by itself.
 */
export interface ChecklistItem {
  text: string;
  schedule: CronSchedule;
  /** The line number in HEARTBEAT.md (1-based), for error messages. */
  line: number;
}

export interface Checklist {
  items: ChecklistItem[];
  /** Lines with an `@` whose schedule could not be read: said, not silently dropped. */
  problems: string[];
}

export function parseChecklist(markdown: string, options: { tz?: string; anchorMs: number }): Checklist {
  const items: ChecklistItem[] = [];
  const problems: string[] = [];
  markdown.split('\n').forEach((raw, index) => {
    const match = /^\s*[-*]\s+(?:\[[ xX]\]\s+)?(.+?)\s+@\s+(.+?)\s*$/.exec(raw);
    if (!match) return;
    try {
      const schedule = parseSchedule(match[2]!, { tz: options.tz, now: options.anchorMs });
      items.push({ text: match[1]!, schedule, line: index + 1 });
    } catch (error) {
      problems.push(`HEARTBEAT.md line ${index + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return { items, problems };
}

/** Items with an instant in (sinceMs, nowMs]: what came due since the last look. */
export function dueItems(checklist: Checklist, sinceMs: number, nowMs: number): ChecklistItem[] {
  return checklist.items.filter((item) => {
    const next = nextRunAfter(item.schedule, sinceMs);
    return next !== undefined && next <= nowMs;
  });
}
