import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import {
  type CronJob,
  type CronJobInput,
  createCronStore,
  cronJobInputSchema,
  nextRunAfter,
  parseSchedule,
} from '../cron/index.js';
import { PermissionStore } from '../exec/index.js';
import type { HearthPaths } from '../paths/index.js';
import { authConfigSchema, createAuthProfileManager } from '../providers/index.js';
import type { SecretStore } from '../secrets/index.js';
import { createSessionStore } from '../sessions/index.js';
import type { ImportConfig } from './import-config.js';
import type { ImportTargets } from './import-targets.js';

/** `config` is the caller's own type (the CLI reads the gateway's port from it too). */
export interface OfflineTargets<C extends ImportConfig = ImportConfig> extends ImportTargets {
  config: C;
  /** Writes what is pending (auth stats, permissions, the session index) and closes the config. */
  close(): Promise<void>;
}

/**
 * Import targets on a HEARTH_HOME with no gateway running (the `hearth import` CLI): the same
 * stores the gateway opens at start, so it finds everything there. Cron jobs are added to
 * `state/cron/jobs.json` as the scheduler would add them, without starting the scheduler.
 */
export async function openOfflineTargets<C extends ImportConfig & Disposable>(deps: {
  paths: HearthPaths;
  secrets: SecretStore;
  clock: Clock;
  log: Logger;
  templatesDir?: string;
  /**
   * Opens hearth.json (not watched: the CLI runs once). Passed in, as only the host knows every
   * capability's section the file is checked against (host/hearth-config.ts openHearthConfig).
   */
  openConfig(path: string): Promise<C>;
}): Promise<OfflineTargets<C>> {
  const { paths, clock, log } = deps;
  const config = await deps.openConfig(paths.configFile);
  const sessions = createSessionStore({ paths, clock, log });
  const auth = await createAuthProfileManager({
    stateDir: paths.stateDir,
    secrets: deps.secrets,
    clock,
    log,
    config: () => authConfigSchema.parse(config.current.auth ?? {}),
  });
  const permissions = await PermissionStore.open(paths.stateDir, clock);
  const cronDir = join(paths.stateDir, 'cron');
  const cronStore = createCronStore({ jobsFile: join(cronDir, 'jobs.json'), runsFile: join(cronDir, 'runs.jsonl') });
  const jobs: CronJob[] = await cronStore.load();
  return {
    config,
    workspaceDir: (agentId) => paths.workspaceDir(agentId),
    ...(deps.templatesDir ? { templatesDir: deps.templatesDir } : {}),
    sessions,
    auth,
    allowlist: permissions.allowlist(),
    cron: {
      list: () => jobs.map((job) => ({ ...job })),
      async add(input: CronJobInput) {
        const parsed = cronJobInputSchema.parse(input);
        const now = clock.now();
        const schedule = parseSchedule(parsed.schedule, { ...(parsed.tz ? { tz: parsed.tz } : {}), now });
        const nextRunAtMs = nextRunAfter(schedule, now);
        if (nextRunAtMs === undefined) throw new Error(`schedule "${parsed.schedule}" never runs`);
        jobs.push({
          id: randomUUID(),
          name: parsed.name,
          scheduleText: parsed.schedule,
          schedule,
          agentId: parsed.agentId,
          message: parsed.message,
          session: parsed.session,
          delivery: parsed.delivery,
          enabled: parsed.enabled,
          createdAtMs: now,
          updatedAtMs: now,
          ...(parsed.enabled ? { nextRunAtMs } : {}),
        });
        await cronStore.save(jobs);
      },
    },
    now: () => clock.now(),
    async close() {
      await auth.flush();
      await permissions.flush();
      await sessions.flush();
      config.dispose();
    },
  };
}
