import { z } from 'zod';
import { agentEngineConfigSchema } from '../cli-backends/index.js';
import { asWrittenSchema } from '../config/index.js';
import { execConfigSchema } from '../exec/index.js';
import { agentMemoryConfigSchema } from '../memory/index.js';
import { agentModelConfigSchema } from '../providers/index.js';
import { createAgentsConfigSchema } from '../sessions/index.js';
import { toolCatalogueConfigShape } from '../tools/catalogue/index.js';

/**
 * The roster's view of hearth.json: only the slices it edits (an agent's model, engine, tool
 * profile and exec policy, memory scope; the root exec policy new agents start from). Every
 * other section and key passes through untouched; the host's full schema checks the whole file
 * when the edit is written, so this module never needs the host's aggregation.
 */
const rosterTools = z
  .object({ exec: execConfigSchema.optional(), ...toolCatalogueConfigShape })
  .loose()
  .optional();

const rosterAgents = createAgentsConfigSchema({
  entry: {
    model: agentModelConfigSchema.optional(),
    engine: agentEngineConfigSchema.optional(),
    tools: rosterTools,
    memory: agentMemoryConfigSchema.optional(),
  },
  defaults: {},
});

export const rosterFileSchema = asWrittenSchema(
  z.looseObject({ agents: rosterAgents.optional(), tools: rosterTools }),
  'hearth.json',
);

/** hearth.json as written, as far as the roster reads it. */
export type RosterFile = z.infer<typeof rosterFileSchema>;
