import type { Disposable } from '../../base/disposable.js';
import { DisposableStore } from '../../base/disposable.js';
import type { CronConfig, CronService } from '../../cron/index.js';
import type { CronPage } from '../../protocol/methods/cron.js';
import type { MethodRouter } from '../method-router.js';

export interface CronMethodsDeps {
  cron: CronService;
  config(): CronConfig;
  /** The jobs file, for `cron.status`. */
  storePath: string;
}

const defaultPage = 50;
/** Run history read per `cron.runs` call at most (newest first). */
const historyWindow = 1000;

function paged<T>(items: readonly T[], offset = 0, limit = defaultPage): { items: T[]; page: CronPage } {
  const slice = items.slice(offset, offset + limit);
  const hasMore = offset + slice.length < items.length;
  return {
    items: slice,
    page: { total: items.length, offset, limit, hasMore, nextOffset: hasMore ? offset + slice.length : null },
  };
}

/** `cron.*`: jobs, their runs and the scheduler's state (docs/AUTOMATION.md), in shapes OpenClaw's UI also reads. */
export function registerCronMethods(router: MethodRouter, deps: CronMethodsDeps): Disposable {
  const { cron } = deps;
  const store = new DisposableStore();
  store.add(
    router.handle('cron.list', ({ agentId, offset, limit }) => {
      const jobs = cron
        .list()
        .filter((job) => agentId === undefined || job.agentId === agentId)
        .sort((a, b) => (a.nextRunAtMs ?? Number.MAX_SAFE_INTEGER) - (b.nextRunAtMs ?? Number.MAX_SAFE_INTEGER));
      const { items, page } = paged(jobs, offset, limit);
      const revision = jobs.reduce((latest, job) => Math.max(latest, job.updatedAtMs, job.lastRunAtMs ?? 0), 0);
      return { jobs: items, ...page, snapshotRevision: `${jobs.length}-${revision}` };
    }),
  );
  store.add(
    router.handle('cron.status', () => {
      const status = cron.status();
      const config = deps.config();
      return {
        enabled: config.enabled,
        triggersEnabled: config.enabled,
        catchUp: config.catchUp,
        jobs: status.jobs,
        enabledJobs: status.enabled,
        running: status.running,
        nextWakeAtMs: status.nextWakeAtMs ?? null,
        storage: 'json' as const,
        storePath: deps.storePath,
        sqlitePath: null,
        ...(status.problem ? { problem: status.problem } : {}),
      };
    }),
  );
  store.add(
    router.handle('cron.runs', async ({ jobId, offset, limit }) => {
      const runs = await cron.runs({ jobId, limit: historyWindow });
      const { items, page } = paged(runs, offset, limit);
      return { runs: items, entries: items, ...page };
    }),
  );
  store.add(router.handle('cron.add', async (params) => ({ job: await cron.add(params) })));
  store.add(router.handle('cron.update', async ({ id, patch }) => ({ job: await cron.update(id, patch) })));
  store.add(router.handle('cron.remove', async ({ id }) => ({ job: await cron.remove(id) })));
  store.add(
    router.handle('cron.run', ({ id }) => {
      const { runId, sessionKey, done } = cron.runNow(id);
      // The run goes on after the answer; its end arrives as a `cron.changed` event.
      void done.catch(() => {});
      return { runId, sessionKey };
    }),
  );
  return store;
}
