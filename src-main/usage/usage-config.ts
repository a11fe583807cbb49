import { z } from 'zod';

/** One cap: tokens (input + output), US dollars, or both (whichever is reached first). */
const limitValueSchema = z
  .object({
    tokens: z.number().int().positive().optional(),
    costUsd: z.number().positive().optional(),
  })
  .strict();

const periodLimitsSchema = z.object({ day: limitValueSchema.optional(), month: limitValueSchema.optional() }).strict();

/** US dollars per million tokens. `cachedInput` defaults to `input` (no discount assumed). */
export const modelPriceSchema = z
  .object({
    input: z.number().min(0),
    output: z.number().min(0),
    cachedInput: z.number().min(0).optional(),
  })
  .strict();

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * Background work (heartbeat, cron, Dreaming) runs with nobody watching, so it has a cap of
 * its own unless `usage.limits.background` says otherwise (`{}` removes it). docs/USAGE.md.
 */
export const defaultBackgroundLimits = { day: { tokens: 200_000 } } as const;

/** hearth.json `usage`: prices, caps and where days are cut. */
export const usageConfigSchema = z
  .object({
    /** IANA zone days and months are cut in; default: the machine's. */
    timeZone: z.string().refine(isTimeZone, 'not a known IANA time zone (e.g. "Europe/Berlin")').optional(),
    /** Fraction of a cap at which the person is told (default 0.8). */
    warnAt: z.number().gt(0).lt(1).default(0.8),
    /** Price overrides per `provider/model`, over the built-in table. */
    prices: z
      .record(z.string().regex(/^[^/\s]+\/\S+$/, 'a price key is "provider/model"'), modelPriceSchema)
      .default({}),
    limits: z
      .object({
        global: periodLimitsSchema.optional(),
        /** Absent: the default background cap. */
        background: periodLimitsSchema.optional(),
        agents: z.record(z.string().min(1), periodLimitsSchema).default({}),
      })
      .strict()
      .default({ agents: {} }),
  })
  .strict();

export type UsageConfig = z.output<typeof usageConfigSchema>;
export type ModelPrice = z.output<typeof modelPriceSchema>;
export type PeriodLimits = z.output<typeof periodLimitsSchema>;

/** Throws naming the bad key (`usage.limits.global.day.tokens: …`). */
export function parseUsageConfig(raw: unknown): UsageConfig {
  const parsed = usageConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`usage.${issue?.path.join('.') || ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
