import { z } from 'zod';
import type { CronCatchUp } from './cron-scheduler.js';

/** hearth.json `cron`: the jobs themselves live in state, only how the scheduler behaves is config. */
export const cronConfigSchema = z
  .object({
    /** false: jobs are kept but nothing fires. */
    enabled: z.boolean().default(true),
    /** Missed runs while the machine slept: run once on wake, or wait for the next instant. */
    catchUp: z.enum(['once', 'skip']).default('once'),
    /** Longest a cron turn may run before it is aborted. */
    runTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(10 * 60_000),
  })
  .strict();

export interface CronConfig {
  enabled: boolean;
  catchUp: CronCatchUp;
  runTimeoutMs: number;
}

/** Throws naming the bad key (`cron.catchUp: …`). */
export function parseCronConfig(raw: unknown): CronConfig {
  const parsed = cronConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`cron.${issue?.path.join('.') || ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
