import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createFakeClock, type FakeClock } from '../testing/fake-clock.js';
import { createTempHome } from '../testing/temp-home.js';
import type { CronJob } from './cron-job.js';
import type { CronCatchUp } from './cron-scheduler.js';
import { type CronService, createCronService } from './cron-service.js';
import { CronStoreError, createCronStore } from './cron-store.js';

const hour = 3_600_000;
const day = 24 * hour;

let temp: { home: string; cleanup(): Promise<void> };
let services: CronService[] = [];

beforeEach(async () => {
  temp = await createTempHome('hearth-cron-');
});
afterEach(async () => {
  for (const service of services) await service.dispose();
  services = [];
  await temp.cleanup();
});

/**
 * Moves time on an hour at a time and lets each started run finish before the next step, as
 * happens between timer fires on a real machine (the fake clock runs no microtasks itself).
 */
async function pass(clock: FakeClock, service: CronService, ms: number, step = hour): Promise<void> {
  for (let left = ms; left > 0; left -= step) {
    clock.advance(Math.min(step, left));
    await service.idle();
  }
}

interface Harness {
  service: CronService;
  clock: FakeClock;
  fired: { jobId: string; at: number; sessionKey: string }[];
}

async function startCron(options: {
  clock: FakeClock;
  catchUp?: CronCatchUp;
  fired?: Harness['fired'];
}): Promise<Harness> {
  const fired = options.fired ?? [];
  const store = createCronStore({
    jobsFile: join(temp.home, 'state', 'cron', 'jobs.json'),
    runsFile: join(temp.home, 'state', 'cron', 'runs.jsonl'),
  });
  const service = createCronService({
    store,
    clock: options.clock,
    log: silentLogger,
    catchUp: () => options.catchUp ?? 'once',
    runner: async (job: CronJob, run) => {
      fired.push({ jobId: job.id, at: options.clock.now(), sessionKey: run.sessionKey });
      return { status: 'ok', summary: `ran ${job.name}` };
    },
  });
  services.push(service);
  await service.start();
  return { service, clock: options.clock, fired };
}

describe('cron schedule over a simulated month', () => {
  it('fires a weekday 08:00 America/New_York job at the right instants across the March DST change', async () => {
    // Sunday 1 March 2026, 00:00 UTC; New York moves from UTC-5 to UTC-4 on Sunday 8 March.
    const clock = createFakeClock(Date.UTC(2026, 2, 1, 0, 0));
    const { service, fired } = await startCron({ clock });
    await service.add({
      name: 'inbox',
      schedule: '0 8 * * 1-5',
      tz: 'America/New_York',
      message: 'summarise my inbox',
    });
    await pass(clock, service, 31 * day);

    const expected: string[] = [];
    for (let date = 1; date <= 31; date++) {
      const weekday = new Date(Date.UTC(2026, 2, date)).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      // 08:00 in New York is 13:00 UTC before the change and 12:00 UTC after it.
      expected.push(new Date(Date.UTC(2026, 2, date, date < 8 ? 13 : 12)).toISOString());
    }
    expect(fired.map((run) => new Date(run.at).toISOString())).toEqual(expected);
    expect(expected).toHaveLength(22);
    // Each run got a fresh session of its own (session: isolated).
    expect(new Set(fired.map((run) => run.sessionKey)).size).toBe(22);
    expect(fired[0]!.sessionKey).toMatch(/^agent:main:cron:/);
    expect(await service.runs({ limit: 100 })).toHaveLength(22);
  });

  it('runs every 30m from the moment it was added', async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const { service, fired } = await startCron({ clock });
    await service.add({ name: 'poll', schedule: 'every 30m', message: 'check' });
    await pass(clock, service, 2 * hour, 10 * 60_000);
    expect(fired.map((run) => run.at - Date.UTC(2026, 0, 1))).toEqual([0.5, 1, 1.5, 2].map((h) => h * hour));
  });

  it('runs a one-shot job once, then disables it', async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 1));
    const { service, fired } = await startCron({ clock });
    const job = await service.add({ name: 'remind', schedule: 'at 2026-01-01T09:30:00+01:00', message: 'stand up' });
    await pass(clock, service, day);
    expect(fired.map((run) => new Date(run.at).toISOString())).toEqual(['2026-01-01T08:30:00.000Z']);
    expect(service.get(job.id)).toMatchObject({ enabled: false, lastResult: { status: 'ok' } });
    expect(service.get(job.id)?.nextRunAtMs).toBeUndefined();
  });
});

describe('sleep and wake', () => {
  it('runs a job whose instants passed while the machine slept once on wake, not once per instant', async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 5, 0, 0));
    const { service, fired } = await startCron({ clock });
    await service.add({ name: 'hourly', schedule: '0 * * * *', tz: 'UTC', message: 'tick' });
    await pass(clock, service, 90 * 60_000);
    expect(fired).toHaveLength(1);
    // The lid closes for three days: no timer fires, then the machine wakes.
    clock.set(clock.now() + 3 * day);
    service.wake();
    await service.idle();
    expect(fired).toHaveLength(2);
    expect(fired[1]!.at).toBe(Date.UTC(2026, 0, 8, 1, 30));
    const [latest] = await service.runs({ limit: 1 });
    expect(latest).toMatchObject({ trigger: 'catch-up', scheduledAtMs: Date.UTC(2026, 0, 5, 2) });
    // And the schedule carries on from now.
    await pass(clock, service, 30 * 60_000);
    expect(fired).toHaveLength(3);
    expect(fired[2]!.at).toBe(Date.UTC(2026, 0, 8, 2));
  });

  it('with cron.catchUp "skip", records the missed run and waits for the next instant', async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 5, 0, 0));
    const { service, fired } = await startCron({ clock, catchUp: 'skip' });
    const job = await service.add({ name: 'hourly', schedule: '0 * * * *', tz: 'UTC', message: 'tick' });
    clock.set(clock.now() + 3 * day + 30 * 60_000);
    service.wake();
    await service.idle();
    expect(fired).toHaveLength(0);
    await expect.poll(() => service.get(job.id)?.lastResult?.status).toBe('skipped');
    await pass(clock, service, 30 * 60_000);
    expect(fired.map((run) => run.at)).toEqual([Date.UTC(2026, 0, 8, 1)]);
  });

  it('an idle scheduler with no jobs holds no timer', async () => {
    const clock = createFakeClock();
    const { service } = await startCron({ clock });
    expect(clock.pendingTimers).toBe(0);
    const job = await service.add({ name: 'x', schedule: 'every 1h', message: 'x' });
    expect(clock.pendingTimers).toBe(1);
    await service.remove(job.id);
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('jobs kept in state', () => {
  it('keeps jobs across a restart and catches up what was missed while Hearth was off', async () => {
    const clock = createFakeClock(Date.UTC(2026, 0, 5, 7, 0));
    const fired: Harness['fired'] = [];
    const first = await startCron({ clock, fired });
    const job = await first.service.add({ name: 'daily', schedule: '0 8 * * *', tz: 'Europe/Paris', message: 'hello' });
    await first.service.dispose();
    services = services.filter((service) => service !== first.service);

    const saved = JSON.parse(await readFile(join(temp.home, 'state', 'cron', 'jobs.json'), 'utf8'));
    expect(saved).toMatchObject({ version: 1, jobs: [{ id: job.id, name: 'daily', session: 'isolated' }] });

    clock.set(Date.UTC(2026, 0, 7, 12, 0));
    const second = await startCron({ clock, fired });
    await second.service.idle();
    expect(second.service.list().map((j) => j.id)).toEqual([job.id]);
    expect(fired).toHaveLength(1);
    expect(second.service.get(job.id)?.nextRunAtMs).toBe(Date.UTC(2026, 0, 8, 7, 0));
  });

  it('refuses a jobs file it cannot read, says which, and never overwrites it', async () => {
    const file = join(temp.home, 'state', 'cron', 'jobs.json');
    const store = createCronStore({ jobsFile: file, runsFile: join(temp.home, 'state', 'cron', 'runs.jsonl') });
    await store.save([]);
    const broken = '{"version": 1, "jobs": [{"id": "a"';
    await writeFile(file, broken);
    await expect(store.load()).rejects.toBeInstanceOf(CronStoreError);
    const { service } = await startCron({ clock: createFakeClock() });
    expect(service.status().problem).toMatch(/jobs\.json cannot be read \(not JSON/);
    await expect(service.add({ name: 'x', schedule: 'every 1h', message: 'x' })).rejects.toThrow(/left untouched/);
    await service.dispose();
    expect(await readFile(file, 'utf8')).toBe(broken);
  });

  it('refuses a file from a newer Hearth by its version', async () => {
    const file = join(temp.home, 'state', 'cron', 'jobs.json');
    await createCronStore({ jobsFile: file, runsFile: `${file}.runs` }).save([]);
    await writeFile(file, JSON.stringify({ version: 2, jobs: [] }));
    const { service } = await startCron({ clock: createFakeClock() });
    expect(service.status().problem).toMatch(/format version 2 was written by a newer Hearth/);
  });

  it('names the job field a hand-edited file got wrong, and keeps the file as it is', async () => {
    const file = join(temp.home, 'state', 'cron', 'jobs.json');
    const store = createCronStore({ jobsFile: file, runsFile: `${file}.runs` });
    const job: CronJob = {
      id: 'j1',
      name: 'standup',
      scheduleText: 'every 1h',
      schedule: { kind: 'every', everyMs: hour, anchorMs: 0 },
      agentId: 'main',
      message: 'hi',
      session: 'isolated',
      delivery: 'ui',
      enabled: true,
      createdAtMs: 1,
      updatedAtMs: 1,
      lastResult: { status: 'ok', summary: 'done', delivery: { to: 'owner', status: 'sent' } },
    };
    await store.save([job]);
    expect(await store.load()).toEqual([job]);
    const edited = JSON.stringify({ version: 1, jobs: [{ ...job, enabled: 'yes' }] });
    await writeFile(file, edited);
    await expect(store.load()).rejects.toThrow(/jobs\.json cannot be read \(jobs\.0\.enabled: /);
    expect(await readFile(file, 'utf8')).toBe(edited);
  });

  it('reads the run history line by line, leaving out a torn line and a line that is not a run', async () => {
    const runsFile = join(temp.home, 'state', 'cron', 'runs.jsonl');
    const store = createCronStore({ jobsFile: join(temp.home, 'state', 'cron', 'jobs.json'), runsFile });
    const run = {
      runId: 'r1',
      jobId: 'j1',
      scheduledAtMs: 1,
      startedAtMs: 1,
      endedAtMs: 2,
      status: 'ok' as const,
      summary: 'done',
      trigger: 'manual' as const,
    };
    await store.appendRun(run);
    await writeFile(runsFile, `${await readFile(runsFile, 'utf8')}{"runId": 7}\n{"runId": "r2", "jobId`, { flag: 'w' });
    expect(await store.runs()).toEqual([run]);
  });
});

describe('bad input', () => {
  it('names what is wrong and adds nothing', async () => {
    const { service } = await startCron({ clock: createFakeClock(Date.UTC(2026, 0, 1)) });
    await expect(service.add({ name: 'x', schedule: 'every 10', message: 'x' })).rejects.toThrow(/number and a unit/);
    await expect(service.add({ name: 'x', schedule: 'every 10s', message: 'x' })).rejects.toThrow(/shortest interval/);
    await expect(service.add({ name: 'x', schedule: '0 8 * *', message: 'x' })).rejects.toThrow(
      /not a cron expression/,
    );
    await expect(service.add({ name: 'x', schedule: '0 8 * * *', tz: 'Mars/Olympus', message: 'x' })).rejects.toThrow(
      /unknown time zone "Mars\/Olympus"/,
    );
    await expect(service.add({ name: 'x', schedule: 'at 2026-01-02T08:00', message: 'x' })).rejects.toThrow(/offset/);
    await expect(service.add({ name: 'x', schedule: 'at 2025-01-02T08:00:00Z', message: 'x' })).rejects.toThrow(
      /never runs/,
    );
    await expect(service.add({ name: 'x', schedule: '61 8 * * *', message: 'x' })).rejects.toThrow(/schedule "61 8/);
    await expect(
      service.add({ name: 'x', schedule: 'every 1h', message: 'x', session: 'agent:other:main' }),
    ).rejects.toThrow(/belongs to agent "other"/);
    expect(service.list()).toEqual([]);
  });
});
