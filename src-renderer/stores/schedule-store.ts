import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CronJobView, CronRunView, CronStatusView } from '../../src-main/protocol/methods/cron.js';
import type { HeartbeatStatus } from '../../src-main/protocol/methods/gateway.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

/** What the add form sends (docs/AUTOMATION.md "A job"). */
export interface NewCronJob {
  name: string;
  schedule: string;
  tz?: string;
  message: string;
  /** `ui` (default), `owner`, `none`, or a chat such as `telegram:42`. */
  delivery?: string;
}

export interface ScheduleState {
  jobs: CronJobView[];
  /** Newest first, every job's. */
  runs: CronRunView[];
  cron?: CronStatusView;
  heartbeat?: HeartbeatStatus;
  /** Cost in US dollars of a run's session, when the usage meter knows it (`usage.summary`). */
  costs: Record<string, number>;
  /** Job ids with a change or run in flight. */
  busy: string[];
  loaded: boolean;
  error?: string;
  refresh(): Promise<void>;
  setEnabled(id: string, enabled: boolean): Promise<void>;
  runNow(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** Resolves true when the job was added; false (with `error` set) when the gateway refused it. */
  add(job: NewCronJob): Promise<boolean>;
}

const RUNS_SHOWN = 50;

export function createScheduleStore(client: GatewayPort): StoreApi<ScheduleState> & { dispose(): void } {
  const store = createStore<ScheduleState>((set, get) => {
    const act = async (id: string, work: () => Promise<unknown>) => {
      set((s) => ({ busy: [...s.busy, id] }));
      let error: string | undefined;
      try {
        await work();
      } catch (caught) {
        error = errorText(caught);
      }
      await get().refresh();
      // Said after the refresh, which clears it: why the change did not happen.
      set((s) => ({ busy: s.busy.filter((item) => item !== id), ...(error ? { error } : {}) }));
    };
    return {
      jobs: [],
      runs: [],
      costs: {},
      busy: [],
      loaded: false,
      async refresh() {
        const [jobs, runs, cron, status, usage] = await Promise.allSettled([
          client.request('cron.list', { limit: 500 }),
          client.request('cron.runs', { limit: RUNS_SHOWN }),
          client.request('cron.status', {}),
          client.request('status', {}),
          client.request('usage.summary', { days: 31, topSessions: 100 }),
        ]);
        const costs: Record<string, number> = {};
        if (usage.status === 'fulfilled') {
          for (const row of usage.value.topSessions) costs[row.sessionKey] = row.costUsd;
        }
        set({
          jobs: jobs.status === 'fulfilled' ? jobs.value.jobs : get().jobs,
          runs:
            runs.status === 'fulfilled'
              ? [...runs.value.runs].sort((a, b) => b.startedAtMs - a.startedAtMs)
              : get().runs,
          cron: cron.status === 'fulfilled' ? cron.value : get().cron,
          heartbeat: status.status === 'fulfilled' ? status.value.heartbeat : get().heartbeat,
          costs,
          loaded: true,
          error: jobs.status === 'rejected' ? errorText(jobs.reason) : undefined,
        });
      },
      setEnabled: (id, enabled) => act(id, () => client.request('cron.update', { id, patch: { enabled } })),
      runNow: (id) => act(id, () => client.request('cron.run', { id })),
      remove: (id) => act(id, () => client.request('cron.remove', { id })),
      async add(job) {
        try {
          await client.request('cron.add', {
            name: job.name,
            schedule: job.schedule,
            message: job.message,
            ...(job.tz ? { tz: job.tz } : {}),
            ...(job.delivery ? { delivery: job.delivery } : {}),
          });
        } catch (error) {
          set({ error: errorText(error) });
          return false;
        }
        await get().refresh();
        return true;
      },
    };
  });
  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('cron.changed', () => void store.getState().refresh()),
    client.on('heartbeat', (beat) => {
      // A quiet beat only moves the times: update in place instead of asking for everything again.
      const heartbeat = store.getState().heartbeat;
      if (beat.status === 'quiet' && heartbeat) {
        store.setState({
          heartbeat: {
            ...heartbeat,
            lastAt: beat.atMs,
            ...(heartbeat.intervalMs ? { nextAt: beat.atMs + heartbeat.intervalMs } : {}),
            quietBeats: (heartbeat.quietBeats ?? 0) + 1,
            lastResult: beat,
          },
        });
      } else void store.getState().refresh();
    }),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
