import { z } from 'zod';

/**
 * `agents.list[].engine` (or `agents.defaults.engine`): the agent is answered by an external agent
 * CLI instead of Hearth's model loop. `cli` names a registered CLI backend ("claude-code", "codex").
 */
export const agentEngineConfigSchema = z
  .object({
    cli: z.string().min(1),
    /** The program, or the program and its leading arguments; default: the backend's (`claude`, `codex`). */
    command: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** Passed as the CLI's `--model`; default: the CLI's own choice. */
    model: z.string().min(1).optional(),
    /**
     * What the CLI may do, mapped onto its own safe modes (never a bypass): `read-only` (default)
     * or `workspace-write` (edits in the agent's workspace).
     */
    access: z.enum(['read-only', 'workspace-write']).optional(),
    /**
     * Which turns the CLI answers: `all` (default) or `subagents`: the agent itself stays on its
     * model, and the subagents it spawns (sessions_spawn) run on the CLI, e.g. a coding task.
     */
    for: z.enum(['all', 'subagents']).optional(),
  })
  .strict();

export type AgentEngineConfig = z.infer<typeof agentEngineConfigSchema>;
