import { z } from 'zod';
import { type ModelSelection, modelSelectionSchema, ProviderConfigError } from './provider-config.js';

/** `"provider/model"` is shorthand for `{ primary: "provider/model", fallbacks: [] }`. */
export const modelSelectionInputSchema = z.union([
  z
    .string()
    .min(3)
    .transform((primary): ModelSelection => ({ primary, fallbacks: [] })),
  modelSelectionSchema,
]);

interface AgentsSectionLike {
  defaults?: { model?: unknown };
  list?: { id?: unknown; model?: unknown }[];
}

/**
 * The models an agent uses: its own `agents.list[].model`, else `agents.defaults.model`.
 * The sessions schema keeps these fields open; they are validated here, naming the bad path.
 */
export function resolveModelSelection(agents: unknown, agentId: string): ModelSelection | undefined {
  const section = (agents ?? {}) as AgentsSectionLike;
  const index = Array.isArray(section.list) ? section.list.findIndex((a) => a?.id === agentId) : -1;
  const own = index >= 0 ? section.list?.[index]?.model : undefined;
  if (own !== undefined) return parseSelection(own, `agents.list[${index}].model`);
  const fallback = section.defaults?.model;
  return fallback === undefined ? undefined : parseSelection(fallback, 'agents.defaults.model');
}

function parseSelection(value: unknown, path: string): ModelSelection {
  const parsed = modelSelectionInputSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${[path, ...issue.path].join('.')}: ${issue.message}`);
  throw new ProviderConfigError(`invalid model selection: ${issues.join('; ')}`);
}
