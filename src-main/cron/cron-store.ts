import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { HearthError } from '../base/errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { deliveryTextSchema } from '../protocol/delivery-target.js';
import type { CronJob, CronRunRecord, CronRunResult } from './cron-job.js';

/**
 * Jobs live in state (`state/cron/jobs.json`), not hearth.json, so the agent and the UI can
 * edit them without touching the person's config. Every save replaces the whole file
 * atomically; a file this version cannot read is never overwritten (the service stops
 * scheduling and says which file is wrong). Run history is an append-only JSONL beside it.
 */
export const CRON_FILE_VERSION = 1;

const scheduleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cron'), expr: z.string().min(1), tz: z.string().optional() }).strict(),
  z.object({ kind: z.literal('every'), everyMs: z.number().int().positive(), anchorMs: z.number() }).strict(),
  z.object({ kind: z.literal('at'), atMs: z.number() }).strict(),
]);
const statusSchema = z.enum(['ok', 'error', 'skipped']);
const deliveryOutcomeSchema = z
  .object({ to: z.string(), status: z.enum(['sent', 'failed']), detail: z.string().optional() })
  .strict();
// Typed by the interfaces they decode, so a field added to a job or a run without its schema breaks the build.
const resultSchema: z.ZodType<CronRunResult> = z
  .object({ status: statusSchema, summary: z.string(), delivery: deliveryOutcomeSchema.optional() })
  .strict();
const jobSchema: z.ZodType<CronJob> = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    scheduleText: z.string().min(1),
    schedule: scheduleSchema,
    agentId: z.string().min(1),
    message: z.string().min(1),
    session: z.string().min(1),
    delivery: deliveryTextSchema,
    enabled: z.boolean(),
    createdAtMs: z.number(),
    updatedAtMs: z.number(),
    nextRunAtMs: z.number().optional(),
    lastRunAtMs: z.number().optional(),
    lastResult: resultSchema.optional(),
  })
  .strict();
const fileSchema = z.object({ version: z.literal(CRON_FILE_VERSION), jobs: z.array(jobSchema) }).strict();
/** One line of the run history; `loose`: a line an older or newer Hearth wrote with other keys still reads. */
const runRecordSchema: z.ZodType<CronRunRecord> = z.looseObject({
  runId: z.string(),
  jobId: z.string(),
  sessionKey: z.string().optional(),
  scheduledAtMs: z.number(),
  startedAtMs: z.number(),
  endedAtMs: z.number(),
  status: statusSchema,
  summary: z.string(),
  trigger: z.enum(['schedule', 'catch-up', 'manual']),
  delivery: deliveryOutcomeSchema.optional(),
});
/** The version a file says it is, read before its schema (a newer one gets its own message). */
const versionOnlySchema = z.looseObject({ version: z.unknown() });

export class CronStoreError extends HearthError {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(
      'unavailable',
      `cron jobs file ${path} cannot be read (${why}); it was left untouched: fix or move it, then restart`,
    );
    this.name = 'CronStoreError';
  }
}

export interface CronStore {
  readonly path: string;
  /** Missing file: no jobs. Unreadable or unknown version: CronStoreError. */
  load(): Promise<CronJob[]>;
  save(jobs: readonly CronJob[]): Promise<void>;
  appendRun(run: CronRunRecord): Promise<void>;
  /** Newest first; a torn last line (a crash mid-append) is skipped. */
  runs(options?: { jobId?: string; limit?: number }): Promise<CronRunRecord[]>;
}

export function createCronStore(options: { jobsFile: string; runsFile: string }): CronStore {
  const { jobsFile, runsFile } = options;
  // Saves are chained so two quick edits can never land out of order.
  let writing: Promise<void> = Promise.resolve();
  return {
    path: jobsFile,
    async load() {
      let text: string;
      try {
        text = await readFile(jobsFile, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw new CronStoreError(jobsFile, (error as Error).message);
      }
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw new CronStoreError(jobsFile, `not JSON: ${(error as Error).message}`);
      }
      const version = versionOnlySchema.safeParse(raw).data?.version;
      if (typeof version === 'number' && version > CRON_FILE_VERSION) {
        throw new CronStoreError(
          jobsFile,
          `format version ${version} was written by a newer Hearth (this one reads ${CRON_FILE_VERSION})`,
        );
      }
      const parsed = fileSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new CronStoreError(jobsFile, `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
      }
      return parsed.data.jobs;
    },
    save(jobs) {
      const body = `${JSON.stringify({ version: CRON_FILE_VERSION, jobs }, null, 2)}\n`;
      const next = writing.then(() => writeFileAtomic(jobsFile, body));
      writing = next.catch(() => {});
      return next;
    },
    async appendRun(run) {
      await mkdir(dirname(runsFile), { recursive: true });
      await appendFile(runsFile, `${JSON.stringify(run)}\n`, { mode: 0o600 });
    },
    async runs(query = {}) {
      let text: string;
      try {
        text = await readFile(runsFile, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const out: CronRunRecord[] = [];
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          // A torn line from a crash mid-append; the rest of the history is still good.
          continue;
        }
        // A line that is not a run is not shown (the file is append-only and keeps it as it is).
        const run = runRecordSchema.safeParse(value);
        if (run.success && (!query.jobId || run.data.jobId === query.jobId)) out.push(run.data);
      }
      return out.reverse().slice(0, query.limit ?? 50);
    },
  };
}
