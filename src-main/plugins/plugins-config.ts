import { z } from 'zod';

/** hearth.json's `plugins`: which plugins load, which fills each exclusive slot, each one's own settings. */
export const pluginsConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    allow: z.array(z.string()).default([]),
    deny: z.array(z.string()).default([]),
    /** Exclusive slots: a plugin id, or 'none' to turn the capability off. */
    slots: z.record(z.string(), z.string()).default({}),
    entries: z
      .record(
        z.string(),
        z
          .object({ enabled: z.boolean().default(true), config: z.record(z.string(), z.unknown()).default({}) })
          .strict(),
      )
      .default({}),
  })
  .strict();

export type PluginsConfig = z.infer<typeof pluginsConfigSchema>;
