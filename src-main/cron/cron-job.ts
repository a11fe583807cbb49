import { z } from 'zod';
import { HearthError } from '../base/errors.js';
import { type DeliveryOutcome, deliveryTextSchema } from '../protocol/delivery-target.js';
import type { CronSchedule } from './cron-schedule.js';

/**
 * Where a run's reply goes, as written (protocol/delivery-target.ts): `ui` (announced to
 * connected clients), `none` (history only), `owner` (the owner's linked channels), or one chat
 * (`telegram:42`, `slack:channel:C0123`). Every run is also announced as `cron.changed`.
 */
export type CronDelivery = string;

export type CronRunStatus = 'ok' | 'error' | 'skipped';

export interface CronRunResult {
  status: CronRunStatus;
  /** The reply's start, or why it failed or was skipped. */
  summary: string;
  /** A channel delivery (`owner`, `telegram:42`): whether it reached the chat. */
  delivery?: DeliveryOutcome;
}

/**
 * One scheduled job as it is kept in state. `session` is `isolated` (a fresh session per run,
 * `agent:<agent>:cron:<job>.<run>`) or a session key whose conversation the run continues.
 */
export interface CronJob {
  id: string;
  name: string;
  /** What the person wrote (`0 8 * * 1-5`, `every 30m`, `at …`), kept for display and editing. */
  scheduleText: string;
  schedule: CronSchedule;
  agentId: string;
  message: string;
  session: string;
  delivery: CronDelivery;
  enabled: boolean;
  createdAtMs: number;
  updatedAtMs: number;
  /** Undefined once a one-shot job ran or a schedule has no more instants. */
  nextRunAtMs?: number;
  lastRunAtMs?: number;
  lastResult?: CronRunResult;
}

/** One run, appended to the history when it ends. */
export interface CronRunRecord {
  runId: string;
  jobId: string;
  sessionKey?: string;
  /** The instant the schedule named (a manual run: when it was asked). */
  scheduledAtMs: number;
  startedAtMs: number;
  endedAtMs: number;
  status: CronRunStatus;
  summary: string;
  trigger: 'schedule' | 'catch-up' | 'manual';
  delivery?: DeliveryOutcome;
}

const name = z.string().trim().min(1).max(120);
const message = z.string().trim().min(1).max(20_000);
const agentId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'an agent id: lowercase letters, digits, "-" or "_"');
/** `isolated`, or a session key (`main`, `agent:main:main`, …); checked by the sessions capability. */
const session = z.string().trim().min(1).max(300);

/** What a person, the model or the wire gives to create a job. */
export const cronJobInputSchema = z
  .object({
    name,
    schedule: z.string().trim().min(1).max(200),
    tz: z.string().min(1).max(64).optional(),
    agentId: agentId.default('main'),
    message,
    session: session.default('isolated'),
    delivery: deliveryTextSchema.default('ui'),
    enabled: z.boolean().default(true),
  })
  .strict();
export type CronJobInput = z.input<typeof cronJobInputSchema>;

/** A partial edit; a changed schedule is parsed again and the next run recomputed. */
export const cronJobPatchSchema = z
  .object({
    name: name.optional(),
    schedule: z.string().trim().min(1).max(200).optional(),
    tz: z.string().min(1).max(64).optional(),
    agentId: agentId.optional(),
    message: message.optional(),
    session: session.optional(),
    delivery: deliveryTextSchema.optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type CronJobPatch = z.input<typeof cronJobPatchSchema>;

/** Parses with `schema`; a bad field becomes a bad_request naming it (`schedule: …`). */
export function parseCronInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'job'}: ${issue.message}`).join('; ');
  throw new HearthError('bad_request', `invalid cron job: ${detail}`);
}
