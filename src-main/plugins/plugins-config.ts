import type { z } from 'zod';
import type { pluginsConfigSchema } from '../config/config-schema.js';

export type PluginsConfig = z.infer<typeof pluginsConfigSchema>;
