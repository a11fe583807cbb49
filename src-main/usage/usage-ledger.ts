import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../base/logger.js';
import { type UsagePurpose, usagePurposes } from '../protocol/methods/usage.js';

/** One model call as the ledger keeps it (one JSON line). Cost is fixed when the call is recorded. */
export interface UsageRecord {
  ts: number;
  /** Local day key at record time. */
  day: string;
  purpose: UsagePurpose;
  agentId: string;
  sessionKey?: string;
  /** Where a subagent's call is counted (usage-tag.ts): the session that spawned it, at the top. */
  parentSessionKey?: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  costUsd: number;
  /** False when no price was known (costUsd is 0). */
  priced: boolean;
}

/**
 * Append-only JSONL, one file per month (`state/usage/2026-12.jsonl`), so a month's totals are
 * one file read and old months can be archived by hand. Lines that do not parse (a torn last
 * line after a crash) or are not a record are skipped and counted (the meter logs how many);
 * the file is append-only and keeps them as they are.
 */
export class UsageLedger {
  private writes: Promise<void> = Promise.resolve();
  private madeDir = false;

  constructor(
    readonly dir: string,
    private readonly log: Logger,
  ) {}

  /** Queues the line; writes stay in order. Failures are logged, never thrown at the model call. */
  append(record: UsageRecord): void {
    const line = `${JSON.stringify(record)}\n`;
    const file = this.fileOf(record.day.slice(0, 7));
    this.writes = this.writes.then(async () => {
      try {
        if (!this.madeDir) {
          await mkdir(this.dir, { recursive: true });
          this.madeDir = true;
        }
        await appendFile(file, line);
      } catch (error) {
        this.log.warn('usage ledger write failed', { file, error: String(error) });
      }
    });
  }

  /** Resolves when every queued line is on disk. */
  flush(): Promise<void> {
    return this.writes;
  }

  /** Months with a file, oldest first. */
  async months(): Promise<string[]> {
    try {
      return (await readdir(this.dir))
        .filter((name) => /^\d{4}-\d{2}\.jsonl$/.test(name))
        .map((name) => name.slice(0, 7))
        .sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async readMonth(month: string): Promise<{ records: UsageRecord[]; skipped: number }> {
    let text: string;
    try {
      text = await readFile(this.fileOf(month), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skipped: 0 };
      throw error;
    }
    const records: UsageRecord[] = [];
    let skipped = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const record = parseRecord(line);
      if (record) records.push(record);
      else skipped++;
    }
    return { records, skipped };
  }

  private fileOf(month: string): string {
    return join(this.dir, `${month}.jsonl`);
  }
}

// Typed by the interface it decodes, so a field added to a record without its schema breaks the build.
// `loose`: a line a newer Hearth wrote with more keys still counts.
const recordSchema: z.ZodType<UsageRecord> = z.looseObject({
  ts: z.number(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  // A purpose this version does not know (a newer Hearth's) is still counted, as "other".
  purpose: z.enum(usagePurposes).catch('other'),
  agentId: z.string(),
  sessionKey: z.string().optional(),
  parentSessionKey: z.string().optional(),
  provider: z.string(),
  model: z.string(),
  // zod 4 numbers are finite: a `1e999` written by hand does not reach the totals as Infinity.
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedInputTokens: z.number(),
  costUsd: z.number(),
  priced: z.boolean(),
});

/** One line, or undefined for a torn line or one that is not a record (the caller counts it as skipped). */
function parseRecord(line: string): UsageRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return recordSchema.safeParse(value).data;
}
