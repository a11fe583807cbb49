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

/** providers' view of `agents`: where an agent's `model` is set (validated by `agentsSectionSchema` for the rest). */
export interface AgentsWithModels {
  defaults?: { model?: unknown };
  list?: readonly { id: string; model?: unknown }[];
}

/**
 * The models an agent uses: its own `agents.list[].model`, else `agents.defaults.model`.
 * The sessions schema keeps these fields open; they are validated here, naming the bad path.
 */
export function resolveModelSelection(
  agents: AgentsWithModels | undefined,
  agentId: string,
): ModelSelection | undefined {
  const index = agents?.list ? agents.list.findIndex((a) => a.id === agentId) : -1;
  const own = index >= 0 ? agents?.list?.[index]?.model : undefined;
  if (own !== undefined) return parseSelection(own, `agents.list[${index}].model`);
  const fallback = agents?.defaults?.model;
  return fallback === undefined ? undefined : parseSelection(fallback, 'agents.defaults.model');
}

function parseSelection(value: unknown, path: string): ModelSelection {
  const parsed = modelSelectionInputSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${[path, ...issue.path].join('.')}: ${issue.message}`);
  throw new ProviderConfigError(`invalid model selection: ${issues.join('; ')}`);
}
