import { z } from 'zod';

/**
 * `agents.defaults.bootstrap`: the budgets of the workspace files in the system prompt and how
 * the model is told about a cut file. Dependency-free, so the root config can mount it at start.
 */
export const bootstrapSettingsSchema = z
  .object({
    /** Per file (default 20 000; cut keeping head 70% + tail 20%). */
    maxChars: z.number().int().positive().optional(),
    /** All files together. */
    totalMaxChars: z.number().int().positive().optional(),
    /** Tell the model a file was cut: never, once per change (default), or every turn. */
    warningMode: z.enum(['off', 'once', 'always']).optional(),
  })
  .loose();

export type BootstrapSettings = z.output<typeof bootstrapSettingsSchema>;
