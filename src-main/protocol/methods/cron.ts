import { z } from 'zod';
import { type DeliveryOutcome, deliveryTextSchema } from '../delivery-target.js';
import { method } from './define.js';

/** A scheduled job as the wire shows it (docs/AUTOMATION.md). */
export interface CronJobView {
  id: string;
  name: string;
  /** What the person wrote: `0 8 * * 1-5`, `every 30m`, `at 2026-12-24T08:00:00+01:00`. */
  scheduleText: string;
  schedule:
    | { kind: 'cron'; expr: string; tz?: string }
    | { kind: 'every'; everyMs: number; anchorMs: number }
    | { kind: 'at'; atMs: number };
  agentId: string;
  message: string;
  /** `isolated` (a new session per run) or the session key a run continues. */
  session: string;
  /** `ui`, `none`, `owner`, or one chat (`telegram:42`): protocol/delivery-target.ts. */
  delivery: string;
  enabled: boolean;
  createdAtMs: number;
  updatedAtMs: number;
  nextRunAtMs?: number;
  lastRunAtMs?: number;
  lastResult?: { status: 'ok' | 'error' | 'skipped'; summary: string };
}

export interface CronRunView {
  runId: string;
  jobId: string;
  /** The run's session: its transcript is `sessions.get` / `chat.history` of this key. */
  sessionKey?: string;
  scheduledAtMs: number;
  startedAtMs: number;
  endedAtMs: number;
  status: 'ok' | 'error' | 'skipped';
  summary: string;
  trigger: 'schedule' | 'catch-up' | 'manual';
  /** A channel delivery's outcome (the reply, or the failure, sent to `owner` or a chat). */
  delivery?: DeliveryOutcome;
}

/** Pages as OpenClaw's Control UI reads them (`total`, `hasMore`, `nextOffset`). */
export interface CronPage {
  total: number;
  offset: number;
  limit: number;
  hasMore: boolean;
  nextOffset: number | null;
}

export interface CronListResult extends CronPage {
  jobs: CronJobView[];
  /** Changes whenever a job does: a client can tell its copy is stale. */
  snapshotRevision: string;
}

export interface CronRunsResult extends CronPage {
  runs: CronRunView[];
  /** The same runs under OpenClaw's name. */
  entries: CronRunView[];
}

export interface CronStatusView {
  enabled: boolean;
  /** OpenClaw's name for `enabled`. */
  triggersEnabled: boolean;
  catchUp: 'once' | 'skip';
  jobs: number;
  enabledJobs: number;
  /** When the scheduler next looks; null when nothing is scheduled (an idle scheduler holds no timer). */
  nextWakeAtMs: number | null;
  running: string[];
  storage: 'json';
  storePath: string;
  sqlitePath: null;
  problem?: string;
}

const jobId = z.string().min(1).max(64);
const page = {
  limit: z.number().int().min(1).max(500).optional(),
  offset: z.number().int().min(0).optional(),
};
const jobFields = {
  name: z.string().min(1).max(120),
  schedule: z.string().min(1).max(200),
  tz: z.string().min(1).max(64).optional(),
  agentId: z.string().min(1).max(64).optional(),
  message: z.string().min(1).max(20_000),
  session: z.string().min(1).max(300).optional(),
  delivery: deliveryTextSchema.optional(),
  enabled: z.boolean().optional(),
};

export const cronMethods = {
  'cron.list': method<CronListResult>()({
    scope: 'operator.read',
    params: () => z.object({ agentId: z.string().min(1).max(64).optional(), ...page }).strict(),
  }),
  'cron.status': method<CronStatusView>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  'cron.runs': method<CronRunsResult>()({
    scope: 'operator.read',
    params: () => z.object({ jobId: jobId.optional(), ...page }).strict(),
  }),
  'cron.add': method<{ job: CronJobView }>()({
    scope: 'operator.write',
    controlPlaneWrite: true,
    params: () => z.object(jobFields).strict(),
  }),
  'cron.update': method<{ job: CronJobView }>()({
    scope: 'operator.write',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          id: jobId,
          patch: z
            .object({
              name: jobFields.name.optional(),
              schedule: jobFields.schedule.optional(),
              tz: jobFields.tz,
              agentId: jobFields.agentId,
              message: jobFields.message.optional(),
              session: jobFields.session,
              delivery: jobFields.delivery,
              enabled: jobFields.enabled,
            })
            .strict(),
        })
        .strict(),
  }),
  'cron.remove': method<{ job: CronJobView }>()({
    scope: 'operator.write',
    controlPlaneWrite: true,
    params: () => z.object({ id: jobId }).strict(),
  }),
  'cron.run': method<{ runId: string; sessionKey: string }>()({
    scope: 'operator.write',
    controlPlaneWrite: true,
    params: () => z.object({ id: jobId }).strict(),
  }),
};
