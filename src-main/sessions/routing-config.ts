import { z } from 'zod';
import { isWorkspacePath } from '../paths/index.js';
import { DEFAULT_AGENT_ID, dmScopes, isValidAgentId, peerKinds } from './session-key.js';

/**
 * The parts of hearth.json that decide which agent answers and which session a
 * message lands in: `agents.list[]`, `agents.bindings[]` and `session.dmScope`.
 * The lead mounts `agentsConfigSchema` under `agents` and `sessionConfigSchema`
 * under `session` in the root config schema.
 */

const agentIdSchema = z
  .string()
  .refine(
    isValidAgentId,
    'agent id must be 1-64 lowercase letters, digits, "-" or "_", starting with a letter or digit',
  );

/** One agent. Other capabilities add their own fields (model, identity…), so unknown keys are kept. */
export const agentEntrySchema = z.looseObject({
  id: agentIdSchema,
  /** The agent that answers when no binding matches; at most one. */
  default: z.boolean().optional(),
  name: z.string().optional(),
  /** The agent's workspace folder (absolute or `~/…`); default `HEARTH_HOME/workspace-<id>`. */
  workspace: z
    .string()
    .refine(
      isWorkspacePath,
      "must be an absolute path or start with ~/ (the folder with the agent's SOUL.md, MEMORY.md…)",
    )
    .optional(),
  model: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
});

export const bindingMatchSchema = z
  .object({
    channel: z.string().min(1, 'channel is required'),
    /** A specific bot account; "*" (or absent) means any account of the channel. */
    accountId: z.string().min(1).optional(),
    peer: z
      .object({ kind: z.enum(peerKinds), id: z.string().min(1) })
      .strict()
      .optional(),
    /** A Discord guild, Slack team, Telegram supergroup… everything inside it. */
    guildId: z.string().min(1).optional(),
  })
  .strict();

export const bindingSchema = z.object({ agentId: agentIdSchema, match: bindingMatchSchema }).strict();

/**
 * Checks that need the whole `agents` section: unique ids, one default, bindings to known agents.
 * `at` is where the section sits (`['agents']` when checked from the root config).
 */
export function checkAgents(
  agents: { list: readonly { id: string; default?: boolean }[]; bindings: readonly { agentId: string }[] },
  ctx: { addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void },
  at: (string | number)[] = [],
): void {
  const seen = new Set<string>();
  agents.list.forEach((agent, index) => {
    if (seen.has(agent.id)) {
      ctx.addIssue({ code: 'custom', path: [...at, 'list', index, 'id'], message: `duplicate agent id "${agent.id}"` });
    }
    seen.add(agent.id);
  });
  const defaults = agents.list.filter((agent) => agent.default === true);
  if (defaults.length > 1) {
    ctx.addIssue({
      code: 'custom',
      path: [...at, 'list'],
      message: `only one agent may be the default (found ${defaults.map((a) => `"${a.id}"`).join(', ')})`,
    });
  }
  // With no list, the implicit "main" agent is the only one.
  const known = seen.size > 0 ? seen : new Set([DEFAULT_AGENT_ID]);
  agents.bindings.forEach((binding, index) => {
    if (!known.has(binding.agentId)) {
      ctx.addIssue({
        code: 'custom',
        path: [...at, 'bindings', index, 'agentId'],
        message: `binding ${index} routes to unknown agent "${binding.agentId}" (known: ${[...known].join(', ')})`,
      });
    }
  });
}

/**
 * The `agents` section with the fields other capabilities own merged in: each capability passes
 * its slice of an agent entry (`tools`, `contextEngine`, `memory`, …) and of `agents.defaults`,
 * and the root config mounts the result, so reading `agents.list[].tools` needs no cast. The
 * root runs `checkAgents` on it (TypeScript cannot check it against a generic entry here).
 */
export function createAgentsConfigSchema<Entry extends z.ZodRawShape, Defaults extends z.ZodRawShape>(slices: {
  entry: Entry;
  defaults: Defaults;
}) {
  return z
    .object({
      /** Settings every agent inherits (e.g. `defaults.model`, validated by the runtime's own schema). */
      defaults: z.looseObject(slices.defaults).optional(),
      list: z.array(agentEntrySchema.extend(slices.entry)).default([]),
      bindings: z.array(bindingSchema).default([]),
    })
    .strict();
}

/** The section as routing alone knows it. */
export const agentsConfigSchema = createAgentsConfigSchema({ entry: {}, defaults: {} }).superRefine((agents, ctx) =>
  checkAgents(agents, ctx),
);

export const sessionConfigSchema = z
  .object({
    /** How direct messages share sessions; per-channel-peer keeps each person on each channel apart. */
    dmScope: z.enum(dmScopes).default('per-channel-peer'),
  })
  .strict();

/** What `resolveRoute` needs: both sections, already parsed (defaults applied). */
export const routingConfigSchema = z.object({
  agents: agentsConfigSchema.default({ list: [], bindings: [] }),
  session: sessionConfigSchema.default({ dmScope: 'per-channel-peer' }),
});

export type AgentEntry = z.output<typeof agentEntrySchema>;
export type Binding = z.output<typeof bindingSchema>;
export type BindingMatch = z.output<typeof bindingMatchSchema>;
export type AgentsConfig = z.output<typeof agentsConfigSchema>;
export type SessionConfig = z.output<typeof sessionConfigSchema>;
export type RoutingConfig = z.output<typeof routingConfigSchema>;
/** Hand-written configs (tests, defaults) may leave sections out. */
export type RoutingConfigInput = z.input<typeof routingConfigSchema>;
