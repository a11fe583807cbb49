import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../base/logger.js';
import type { UsagePurpose } from '../protocol/methods/usage.js';
import { usagePurposes } from '../protocol/methods/usage.js';

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
 * line after a crash) are skipped and counted.
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

const purposes = new Set<string>(usagePurposes);

function parseRecord(line: string): UsageRecord | undefined {
  try {
    const value = JSON.parse(line) as Partial<UsageRecord>;
    const numbers = [value.ts, value.inputTokens, value.outputTokens, value.cachedInputTokens, value.costUsd];
    if (numbers.some((n) => typeof n !== 'number' || !Number.isFinite(n))) return undefined;
    if (typeof value.day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value.day)) return undefined;
    if (typeof value.agentId !== 'string' || typeof value.provider !== 'string' || typeof value.model !== 'string')
      return undefined;
    return { ...value, purpose: purposes.has(value.purpose as string) ? value.purpose : 'other' } as UsageRecord;
  } catch {
    return undefined;
  }
}
