import { z } from 'zod';
import { asWrittenSchema, type ConfigService } from '../config/index.js';
import { agentModelConfigSchema, type ProvidersConfig } from '../providers/index.js';
import { createAgentsConfigSchema } from '../sessions/index.js';

/**
 * An import's view of hearth.json as written: the agents it adds, their model and the default
 * model. Every other section and key passes through; the host's full schema checks the whole
 * file when a step writes it, so import/ never needs the host's aggregation.
 */
const importAgents = createAgentsConfigSchema({
  entry: { model: agentModelConfigSchema.optional() },
  defaults: { model: agentModelConfigSchema.optional() },
});

export const importFileSchema = asWrittenSchema(z.looseObject({ agents: importAgents.optional() }), 'hearth.json');

export type ImportFile = z.infer<typeof importFileSchema>;

/** What an import reads of the live config (defaults applied): the providers already set up, the auth settings. */
export interface ImportConfigView {
  providers: ProvidersConfig;
  auth?: unknown;
}

/** hearth.json as an import writes it: the running gateway's config, or one the CLI opened. */
export type ImportConfig = Pick<ConfigService<ImportConfigView>, 'current' | 'snapshot' | 'patch'>;
