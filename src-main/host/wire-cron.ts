import { join } from 'node:path';
import type { RuntimeServices } from '../agent/index.js';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, AsyncDisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import {
  type CronJobRunner,
  type CronRunResult,
  type CronService,
  createCronService,
  createCronStore,
  createCronTools,
  parseCronConfig,
} from '../cron/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerCronMethods } from '../gateway/methods/cron.js';
import type { HearthPaths } from '../paths/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { ChannelOutbox } from './channel-outbox.js';
import type { HearthConfigService } from './hearth-config.js';

export interface WiredCron extends AsyncDisposable {
  cron: CronService;
}

/**
 * Scheduled jobs: kept in state/cron/, run through the agent runtime as `cron` runs (the cron
 * lane, the cron bootstrap for isolated sessions), announced as `cron.changed`. The model's
 * cron tools join `tools`; they refuse to edit jobs from inside a cron run.
 */
export async function wireCron(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus'>;
  config: Pick<HearthConfigService, 'current'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  services: RuntimeServices;
  /** The shared tool list the runtime reads every turn; the cron tools are added to it. */
  tools: ToolDefinition[];
  /** Where a job whose delivery is `owner` or a chat sends its result (the channels bind it). */
  outbox?: ChannelOutbox;
}): Promise<WiredCron> {
  const { core, config, clock } = deps;
  const log = deps.log.child({ part: 'cron' });
  const root = new AsyncDisposableStore();
  const settings = () => parseCronConfig(config.current.cron);
  const dir = join(deps.paths.stateDir, 'cron');

  const active = new Map<string, string>();
  const runner: CronJobRunner = async (job, { runId, sessionKey }) => {
    const { enabled, runTimeoutMs } = settings();
    if (!enabled) return { status: 'skipped', summary: 'cron.enabled is false in hearth.json' };
    const { runtime } = deps.services;
    runtime.start({ runId, sessionKey, message: job.message, runKind: 'cron', timeoutMs: runTimeoutMs });
    active.set(runId, sessionKey);
    const run = await runtime.wait(runId).finally(() => active.delete(runId));
    const reply = run?.status === 'ok' ? run.text.trim() : '';
    const result: CronRunResult =
      run?.status === 'ok'
        ? { status: 'ok', summary: reply || '(no reply)' }
        : { status: 'error', summary: run?.error?.message ?? `the run ended ${run?.status ?? 'unseen'}` };
    // A person waiting for the 8:00 summary on their phone hears of a failure there too; an empty
    // reply (the job found nothing to say) is not sent.
    const text =
      result.status === 'ok'
        ? reply
          ? `⏰ ${job.name}\n\n${reply}`
          : ''
        : `⚠️ ${job.name} did not run: ${result.summary}`;
    const delivery = text && deps.outbox ? await deps.outbox.deliver(job.delivery, text) : undefined;
    if (delivery?.status === 'failed') log.warn('a cron result was not delivered', { job: job.id, ...delivery });
    return delivery ? { ...result, delivery } : result;
  };

  const store = createCronStore({ jobsFile: join(dir, 'jobs.json'), runsFile: join(dir, 'runs.jsonl') });
  const cron = createCronService({
    store,
    clock,
    log,
    runner,
    catchUp: () => settings().catchUp,
  });
  root.add({ dispose: () => cron.dispose() });
  // Disposed first: a running cron turn is aborted so the scheduler's shutdown does not wait on it.
  root.add({
    dispose: () => {
      for (const [runId, sessionKey] of active) deps.services.runtime.abort(sessionKey, runId);
    },
  });
  root.add(cron.onDidChange(() => core.bus.publish('cron.changed', { reason: 'jobs' })));
  root.add(
    cron.onDidRun(({ job, run }) =>
      core.bus.publish('cron.changed', {
        reason: 'run',
        jobId: job.id,
        name: job.name,
        runId: run.runId,
        ...(run.sessionKey ? { sessionKey: run.sessionKey } : {}),
        status: run.status,
        summary: run.summary,
        delivery: job.delivery,
        ...(run.delivery ? { delivered: run.delivery } : {}),
      }),
    ),
  );
  root.add(registerCronMethods(core.registry, { cron, config: settings, storePath: store.path }));

  const tools = createCronTools(cron);
  deps.tools.push(...tools);
  root.add({
    dispose: () => {
      for (const tool of tools) {
        const index = deps.tools.indexOf(tool);
        if (index >= 0) deps.tools.splice(index, 1);
      }
    },
  });

  await cron.start();
  return { cron, dispose: () => root.dispose() };
}
