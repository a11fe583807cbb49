import { z } from 'zod';

export const PLUGIN_MANIFEST_FILE = 'hearth.plugin.json';

export const pluginManifestSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    name: z.string().optional(),
    version: z.string().default('0.0.0'),
    description: z.string().optional(),
    /** Entry module, relative to the plugin folder. */
    main: z.string().default('index.ts'),
    /** What it contributes, for listing before it is loaded. */
    kinds: z
      .array(z.enum(['tool', 'provider', 'channel', 'memory', 'context-engine', 'cli-backend', 'gateway-method']))
      .default([]),
    /** Exclusive slot it can fill (e.g. memory). */
    slot: z.string().optional(),
  })
  .strict();

export type PluginManifest = z.infer<typeof pluginManifestSchema>;
