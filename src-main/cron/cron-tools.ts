import { z } from 'zod';
import { HearthError } from '../base/errors.js';
import type { ToolContext, ToolDefinition, ToolOutput } from '../tools/tool.js';
import type { CronJob } from './cron-job.js';
import { describeSchedule } from './cron-schedule.js';
import type { CronService } from './cron-service.js';

/**
 * The model's cron tools. A run a cron job started can list jobs but never add or remove
 * one: a job that schedules more jobs (or deletes its own guard rails) is how a quiet
 * automation turns into a runaway one.
 */
function refuseFromCron(context: ToolContext, tool: string): ToolOutput | undefined {
  if (context.runKind !== 'cron') return undefined;
  return { output: `${tool} is refused: a run started by a cron job cannot create or edit cron jobs`, isError: true };
}

function line(job: CronJob): string {
  const next = job.nextRunAtMs === undefined ? 'no next run' : `next ${new Date(job.nextRunAtMs).toISOString()}`;
  const last = job.lastResult ? `, last ${job.lastResult.status}` : '';
  return `${job.id} "${job.name}" ${describeSchedule(job.schedule)} → ${job.session}, ${job.enabled ? next : 'disabled'}${last}`;
}

function failure(error: unknown): ToolOutput {
  if (error instanceof z.ZodError) {
    return {
      output: error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      isError: true,
    };
  }
  return { output: error instanceof HearthError ? error.message : String(error), isError: true };
}

export function createCronTools(cron: Pick<CronService, 'list' | 'add' | 'remove'>): ToolDefinition[] {
  const list: ToolDefinition<Record<string, never>> = {
    name: 'cron_list',
    description: 'List scheduled jobs (id, schedule, next run, last result).',
    inputSchema: z.object({}).strict(),
    async execute(_input, context) {
      const jobs = cron.list().filter((job) => job.agentId === context.agentId);
      return { output: jobs.length === 0 ? 'No scheduled jobs.' : jobs.map(line).join('\n') };
    },
  };
  const addInput = z
    .object({
      name: z.string().min(1).max(120),
      schedule: z
        .string()
        .min(1)
        .max(200)
        .describe('cron "0 8 * * 1-5", "every 30m", or "at 2026-12-24T08:00:00+01:00"'),
      tz: z.string().optional().describe('IANA time zone for a cron expression'),
      message: z.string().min(1).max(20_000).describe('what the agent is told each run'),
      session: z.string().optional().describe('"isolated" (default) or a session key to continue'),
      deliver: z
        .enum(['ui', 'owner'])
        .optional()
        .describe('"owner": also send each result to the person on their channels (Telegram…)'),
    })
    .strict();
  const add: ToolDefinition<z.infer<typeof addInput>> = {
    name: 'cron_add',
    description: 'Schedule a job: the agent gets `message` at each instant of `schedule`.',
    inputSchema: addInput,
    async execute(input, context) {
      const refused = refuseFromCron(context, 'cron_add');
      if (refused) return refused;
      try {
        // The model may reach the app or the owner, never a chat it names: a prompt-injected
        // job must not be able to post to someone else. A person sets other chats (UI, CLI).
        const { deliver, ...fields } = input;
        const job = await cron.add({ ...fields, agentId: context.agentId, delivery: deliver ?? 'ui' });
        return { output: `Scheduled ${line(job)}` };
      } catch (error) {
        return failure(error);
      }
    },
  };
  const removeInput = z.object({ id: z.string().min(1) }).strict();
  const remove: ToolDefinition<z.infer<typeof removeInput>> = {
    name: 'cron_remove',
    description: 'Remove a scheduled job by id.',
    inputSchema: removeInput,
    async execute(input, context) {
      const refused = refuseFromCron(context, 'cron_remove');
      if (refused) return refused;
      const job = cron.list().find((candidate) => candidate.id === input.id);
      if (!job || job.agentId !== context.agentId) return { output: `no cron job "${input.id}"`, isError: true };
      try {
        await cron.remove(input.id);
        return { output: `Removed ${job.id} "${job.name}"` };
      } catch (error) {
        return failure(error);
      }
    },
  };
  return [list, add, remove] as ToolDefinition[];
}
