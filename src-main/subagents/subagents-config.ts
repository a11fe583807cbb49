import { z } from 'zod';

/** main 0, sub 1, sub-sub 2: how deep subagents may nest by default. */
export const DEFAULT_MAX_DEPTH = 2;
/** How long a foreground spawn waits for its subagent by default (then it is aborted). */
export const DEFAULT_SUBAGENT_TIMEOUT_SECONDS = 600;

/** `agents.defaults.subagents` and `agents.list[].subagents` (the agent's own wins). */
export const subagentsConfigSchema = z
  .object({
    maxDepth: z.number().int().min(0).max(5).optional(),
    timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
  })
  .strict();
export type SubagentsConfig = z.infer<typeof subagentsConfigSchema>;

export interface SubagentsSettings {
  maxDepth: number;
  timeoutMs: number;
}

export function subagentsSettings(
  agents: {
    defaults?: { subagents?: SubagentsConfig | undefined } | undefined;
    list: readonly { id: string; subagents?: SubagentsConfig | undefined }[];
  },
  agentId: string,
): SubagentsSettings {
  const own = agents.list.find((agent) => agent.id === agentId)?.subagents;
  const defaults = agents.defaults?.subagents;
  return {
    maxDepth: own?.maxDepth ?? defaults?.maxDepth ?? DEFAULT_MAX_DEPTH,
    timeoutMs: (own?.timeoutSeconds ?? defaults?.timeoutSeconds ?? DEFAULT_SUBAGENT_TIMEOUT_SECONDS) * 1000,
  };
}
