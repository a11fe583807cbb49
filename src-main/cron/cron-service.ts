import { randomBytes } from 'node:crypto';
import type { Clock } from '../base/clock.js';
import { Emitter, type Event } from '../base/emitter.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import { formatSessionKey, normalizeSessionKey } from '../sessions/index.js';
import {
  type CronJob,
  type CronJobInput,
  type CronJobPatch,
  type CronRunRecord,
  type CronRunResult,
  cronJobInputSchema,
  cronJobPatchSchema,
  parseCronInput,
} from './cron-job.js';
import { nextRunAfter, parseSchedule } from './cron-schedule.js';
import { type CronCatchUp, CronTimer, dueJobs } from './cron-scheduler.js';
import type { CronStore } from './cron-store.js';

/** Runs one job's turn; resolves with how it ended (never throws for a failed turn). */
export type CronJobRunner = (job: CronJob, run: { runId: string; sessionKey: string }) => Promise<CronRunResult>;

export interface CronServiceDeps {
  store: CronStore;
  clock: Clock;
  log: Logger;
  runner: CronJobRunner;
  /** Read at every wake, so a config edit applies to the next one. */
  catchUp(): CronCatchUp;
  newId?(): string;
}

export interface CronStatus {
  jobs: number;
  enabled: number;
  /** When the scheduler next looks (epoch ms); absent when nothing is scheduled. */
  nextWakeAtMs?: number;
  running: string[];
  /** Why the jobs file could not be read; the scheduler is stopped while this is set. */
  problem?: string;
}

export interface CronService {
  /** Loads the jobs and arms the timer; missed runs are caught up per `catchUp`. */
  start(): Promise<void>;
  list(): CronJob[];
  get(id: string): CronJob | undefined;
  add(input: CronJobInput): Promise<CronJob>;
  update(id: string, patch: CronJobPatch): Promise<CronJob>;
  remove(id: string): Promise<CronJob>;
  /** Runs a job now, whatever its schedule; resolves once the run is recorded. */
  runNow(id: string): { runId: string; sessionKey: string; done: Promise<CronRunRecord> };
  runs(query?: { jobId?: string; limit?: number }): Promise<CronRunRecord[]>;
  /** Looks for due jobs now: the machine woke, or the clock jumped. */
  wake(): void;
  status(): CronStatus;
  /** Settles once every run started so far has been recorded (tests, shutdown). */
  idle(): Promise<void>;
  readonly onDidChange: Event<{ jobs: CronJob[] }>;
  readonly onDidRun: Event<{ job: CronJob; run: CronRunRecord }>;
  dispose(): Promise<void>;
}

const summaryLimit = 500;

function notFound(id: string): HearthError {
  return new HearthError('not_found', `no cron job ${JSON.stringify(id)} (see cron.list)`);
}

/** `isolated` or a session key, checked now so a typo fails at add time, not at 8:00 tomorrow. */
function checkSession(session: string, agentId: string): string {
  if (session === 'isolated') return session;
  const key = normalizeSessionKey(session);
  const owner = key.split(':')[1];
  if (owner !== agentId) {
    throw new HearthError(
      'bad_request',
      `session ${JSON.stringify(session)} belongs to agent "${owner}", not "${agentId}"`,
    );
  }
  return key;
}

export function createCronService(deps: CronServiceDeps): CronService {
  const { store, clock, log } = deps;
  const newId = deps.newId ?? (() => randomBytes(4).toString('hex'));
  let jobs: CronJob[] = [];
  let problem: string | undefined;
  let disposed = false;
  const running = new Map<string, Promise<CronRunRecord>>();
  const changed = new Emitter<{ jobs: CronJob[] }>((error) =>
    log.warn('cron listener failed', { error: String(error) }),
  );
  const ran = new Emitter<{ job: CronJob; run: CronRunRecord }>((error) =>
    log.warn('cron listener failed', { error: String(error) }),
  );
  const timer = new CronTimer(clock, () => wake());

  const persist = async () => {
    await store.save(jobs);
    changed.fire({ jobs: jobs.map((job) => ({ ...job })) });
  };
  const usable = () => {
    if (problem) throw new HearthError('unavailable', problem);
    if (disposed) throw new HearthError('unavailable', 'the scheduler is shutting down');
  };
  const find = (id: string) => {
    const job = jobs.find((candidate) => candidate.id === id);
    if (!job) throw notFound(id);
    return job;
  };

  function execute(
    job: CronJob,
    scheduledAtMs: number,
    trigger: CronRunRecord['trigger'],
  ): {
    runId: string;
    sessionKey: string;
    done: Promise<CronRunRecord>;
  } {
    const runId = `cron-${job.id}-${newId()}`;
    const sessionKey =
      job.session === 'isolated'
        ? formatSessionKey({ kind: 'task', agentId: job.agentId, scope: 'cron', id: `${job.id}.${runId.slice(-8)}` })
        : job.session;
    const startedAtMs = clock.now();
    const done = (async (): Promise<CronRunRecord> => {
      let result: CronRunResult;
      try {
        result = await deps.runner(job, { runId, sessionKey });
      } catch (error) {
        result = { status: 'error', summary: error instanceof Error ? error.message : String(error) };
      }
      const record: CronRunRecord = {
        runId,
        jobId: job.id,
        sessionKey,
        scheduledAtMs,
        startedAtMs,
        endedAtMs: clock.now(),
        status: result.status,
        summary: result.summary.slice(0, summaryLimit),
        trigger,
        ...(result.delivery ? { delivery: result.delivery } : {}),
      };
      await finish(job.id, record);
      return record;
    })().finally(() => running.delete(job.id));
    running.set(job.id, done);
    return { runId, sessionKey, done };
  }

  async function finish(jobId: string, record: CronRunRecord): Promise<void> {
    await store.appendRun(record).catch((error) => log.error('cannot record cron run', { error: String(error) }));
    const job = jobs.find((candidate) => candidate.id === jobId);
    if (!job) return;
    job.lastRunAtMs = record.startedAtMs;
    job.lastResult = { status: record.status, summary: record.summary };
    if (!disposed) await persist().catch((error) => log.error('cannot save cron jobs', { error: String(error) }));
    ran.fire({ job: { ...job }, run: record });
  }

  function wake(): void {
    if (problem || disposed) return;
    const now = clock.now();
    const due = dueJobs(jobs, now, deps.catchUp());
    for (const { job, scheduledAtMs, trigger, skip } of due) {
      // However many instants passed, the next one is counted from now: one run, not N.
      job.nextRunAtMs = nextRunAfter(job.schedule, now);
      if (job.schedule.kind === 'at') job.enabled = false;
      if (skip) {
        log.info('cron job missed while asleep; skipped (cron.catchUp "skip")', { job: job.id, scheduledAtMs });
        void finish(job.id, {
          runId: `cron-${job.id}-${newId()}`,
          jobId: job.id,
          scheduledAtMs,
          startedAtMs: now,
          endedAtMs: now,
          status: 'skipped',
          summary: `missed at ${new Date(scheduledAtMs).toISOString()} while the machine slept (cron.catchUp is "skip")`,
          trigger,
        });
        continue;
      }
      if (running.has(job.id)) {
        log.warn('cron job still running at its next instant; this instant is skipped', { job: job.id });
        continue;
      }
      execute(job, scheduledAtMs, trigger);
    }
    if (due.length > 0) void persist().catch((error) => log.error('cannot save cron jobs', { error: String(error) }));
    timer.arm(jobs);
  }

  const service: CronService = {
    onDidChange: changed.event,
    onDidRun: ran.event,

    async start() {
      try {
        jobs = await store.load();
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
        log.error('cron stopped: its jobs file cannot be read', { error: problem });
        return;
      }
      const now = clock.now();
      for (const job of jobs) {
        if (job.enabled && job.nextRunAtMs === undefined) job.nextRunAtMs = nextRunAfter(job.schedule, now);
      }
      wake();
    },

    list: () => jobs.map((job) => ({ ...job })),
    get(id) {
      const job = jobs.find((candidate) => candidate.id === id);
      return job ? { ...job } : undefined;
    },

    async add(input) {
      usable();
      const parsed = parseCronInput(cronJobInputSchema, input);
      const now = clock.now();
      const schedule = parseSchedule(parsed.schedule, { tz: parsed.tz, now });
      const nextRunAtMs = nextRunAfter(schedule, now);
      if (nextRunAtMs === undefined) {
        throw new HearthError(
          'bad_request',
          `schedule ${JSON.stringify(parsed.schedule)} never runs (a one-shot time in the past?)`,
        );
      }
      const job: CronJob = {
        id: newId(),
        name: parsed.name,
        scheduleText: parsed.schedule,
        schedule,
        agentId: parsed.agentId,
        message: parsed.message,
        session: checkSession(parsed.session, parsed.agentId),
        delivery: parsed.delivery,
        enabled: parsed.enabled,
        createdAtMs: now,
        updatedAtMs: now,
        ...(parsed.enabled ? { nextRunAtMs } : {}),
      };
      jobs.push(job);
      await persist();
      timer.arm(jobs);
      return { ...job };
    },

    async update(id, patch) {
      usable();
      const parsed = parseCronInput(cronJobPatchSchema, patch);
      const job = find(id);
      const now = clock.now();
      const next: CronJob = { ...job, updatedAtMs: now };
      if (parsed.schedule !== undefined || parsed.tz !== undefined) {
        const text = parsed.schedule ?? job.scheduleText;
        const tz = parsed.tz ?? (job.schedule.kind === 'cron' ? job.schedule.tz : undefined);
        next.schedule = parseSchedule(text, { tz, now });
        next.scheduleText = text;
      }
      if (parsed.name !== undefined) next.name = parsed.name;
      if (parsed.message !== undefined) next.message = parsed.message;
      if (parsed.delivery !== undefined) next.delivery = parsed.delivery;
      if (parsed.agentId !== undefined) next.agentId = parsed.agentId;
      if (parsed.session !== undefined || parsed.agentId !== undefined) {
        next.session = checkSession(parsed.session ?? job.session, next.agentId);
      }
      if (parsed.enabled !== undefined) next.enabled = parsed.enabled;
      next.nextRunAtMs = next.enabled ? nextRunAfter(next.schedule, now) : undefined;
      if (next.enabled && next.nextRunAtMs === undefined) {
        throw new HearthError('bad_request', `schedule ${JSON.stringify(next.scheduleText)} never runs again`);
      }
      Object.assign(job, next);
      if (!next.enabled) delete job.nextRunAtMs;
      await persist();
      timer.arm(jobs);
      return { ...job };
    },

    async remove(id) {
      usable();
      const job = find(id);
      jobs = jobs.filter((candidate) => candidate !== job);
      await persist();
      timer.arm(jobs);
      return { ...job };
    },

    runNow(id) {
      usable();
      const job = find(id);
      if (running.has(job.id)) throw new HearthError('conflict', `cron job ${JSON.stringify(id)} is already running`);
      return execute(job, clock.now(), 'manual');
    },

    runs: (query) => store.runs(query),
    wake,

    status() {
      return {
        jobs: jobs.length,
        enabled: jobs.filter((job) => job.enabled).length,
        ...(timer.nextWakeAtMs === undefined ? {} : { nextWakeAtMs: timer.nextWakeAtMs }),
        running: [...running.keys()],
        ...(problem ? { problem } : {}),
      };
    },

    async idle() {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },

    async dispose() {
      disposed = true;
      timer.dispose();
      await service.idle();
      // Never over a file that could not be read: it may hold the person's jobs.
      if (!problem) await store.save(jobs).catch(() => {});
      changed.dispose();
      ran.dispose();
    },
  };
  return service;
}
