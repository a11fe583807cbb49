import type { Command } from 'commander';
import { describeSchedule } from '../../cron/index.js';
import { parseDeliveryTarget } from '../../protocol/delivery-target.js';
import type { CronJobView, CronRunView } from '../../protocol/methods/cron.js';
import { type CliContext, CliError } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';

interface AddOptions extends GatewayOptions {
  schedule: string;
  message: string;
  tz?: string;
  agent?: string;
  session?: string;
  delivery?: string;
  disabled?: boolean;
}

/** `hearth cron list|add|remove|run|runs`: scheduled jobs, through the running gateway (docs/AUTOMATION.md). */
export function registerCronCommands(program: Command, context: CliContext): void {
  const cron = program.command('cron').description('Scheduled jobs (the agent on its own schedule)');

  withGatewayOptions(cron.command('list').description('Jobs, their next run and last result')).action(
    async (options: GatewayOptions) => {
      const { jobs } = await withGatewayClient(context, options, ['operator.write'], (client) =>
        client.request('cron.list', {}),
      );
      if (options.json) return void context.stdout(`${JSON.stringify(jobs, null, 2)}\n`);
      if (jobs.length === 0) return void context.stdout('no scheduled jobs\n');
      for (const job of jobs) context.stdout(`${formatJob(job)}\n`);
    },
  );

  withGatewayOptions(
    cron
      .command('add')
      .description('Schedule a job')
      .argument('<name>', 'a name to recognise it by')
      .requiredOption('--schedule <when>', 'cron "0 8 * * 1-5", "every 30m", or "at 2026-12-24T08:00:00+01:00"')
      .requiredOption('--message <text>', 'what the agent is told at each run')
      .option('--tz <zone>', "IANA time zone for a cron expression (default: this machine's)")
      .option('--agent <id>', 'agent id', 'main')
      .option('--session <key>', '"isolated" (a new session each run) or a session key to continue', 'isolated')
      .option(
        '--delivery <where>',
        'ui | none | owner (your linked channels) | <channel>:<peerId> (telegram:42) | <channel>:group:<id>',
        'ui',
      )
      .option('--disabled', 'add it switched off'),
  ).action(async (name: string, options: AddOptions) => {
    try {
      parseDeliveryTarget(options.delivery ?? 'ui');
    } catch (error) {
      throw new CliError(`cron add: --${(error as Error).message}`);
    }
    const { job } = await withGatewayClient(context, options, ['operator.write'], (client) =>
      client.request('cron.add', {
        name,
        schedule: options.schedule,
        message: options.message,
        ...(options.tz ? { tz: options.tz } : {}),
        agentId: options.agent,
        session: options.session,
        delivery: options.delivery ?? 'ui',
        enabled: !options.disabled,
      }),
    );
    context.stdout(options.json ? `${JSON.stringify(job, null, 2)}\n` : `added ${formatJob(job)}\n`);
  });

  withGatewayOptions(cron.command('remove').description('Remove a job').argument('<id>', 'job id')).action(
    async (id: string, options: GatewayOptions) => {
      const { job } = await withGatewayClient(context, options, ['operator.write'], (client) =>
        client.request('cron.remove', { id }),
      );
      context.stdout(options.json ? `${JSON.stringify(job)}\n` : `removed ${job.id} "${job.name}"\n`);
    },
  );

  withGatewayOptions(
    cron.command('run').description('Run a job now, whatever its schedule').argument('<id>', 'job id'),
  ).action(async (id: string, options: GatewayOptions) => {
    const started = await withGatewayClient(context, options, ['operator.write'], (client) =>
      client.request('cron.run', { id }),
    );
    context.stdout(
      options.json
        ? `${JSON.stringify(started)}\n`
        : `started ${started.runId} in ${started.sessionKey} (see: hearth cron runs ${id})\n`,
    );
  });

  withGatewayOptions(
    cron
      .command('runs')
      .description('Run history, newest first')
      .argument('[id]', 'only this job')
      .option('--limit <n>', 'most recent runs only', '20'),
  ).action(async (id: string | undefined, options: GatewayOptions & { limit: string }) => {
    const limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      throw new CliError(`cron runs: --limit must be a whole number from 1 to 500, got "${options.limit}"`);
    }
    const { runs } = await withGatewayClient(context, options, ['operator.write'], (client) =>
      client.request('cron.runs', { ...(id ? { jobId: id } : {}), limit }),
    );
    if (options.json) return void context.stdout(`${JSON.stringify(runs, null, 2)}\n`);
    if (runs.length === 0) return void context.stdout('no runs yet\n');
    for (const run of runs) context.stdout(`${formatRun(run)}\n`);
  });
}

export function formatJob(job: CronJobView): string {
  const when = job.enabled
    ? job.nextRunAtMs === undefined
      ? 'no next run'
      : `next ${new Date(job.nextRunAtMs).toISOString()}`
    : 'disabled';
  const last = job.lastResult ? `  last: ${job.lastResult.status}` : '';
  const to = job.delivery === 'ui' ? '' : `  → ${job.delivery}`;
  return `${job.id}  ${job.name}  ${describeSchedule(job.schedule)}  ${job.agentId}/${job.session}${to}  ${when}${last}`;
}

function formatRun(run: CronRunView): string {
  const summary = run.summary.replace(/\s+/g, ' ').slice(0, 120);
  const delivery = run.delivery
    ? `  [${run.delivery.status === 'sent' ? 'sent to' : 'not sent to'} ${run.delivery.to}${run.delivery.status === 'failed' && run.delivery.detail ? `: ${run.delivery.detail}` : ''}]`
    : '';
  return `${new Date(run.startedAtMs).toISOString()}  ${run.jobId}  ${run.status} (${run.trigger})  ${summary}${delivery}`;
}
