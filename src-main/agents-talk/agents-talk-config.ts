import { z } from 'zod';

/** The most turns one exchange may take by default (the ping-pong limit). */
export const DEFAULT_MAX_TURNS = 5;
/** How long an asking turn waits for the other agent's reply by default. */
export const DEFAULT_REPLY_TIMEOUT_SECONDS = 300;

const agentRef = z.string().min(1);

/**
 * `agents.defaults.agentToAgent`: which agents may address which (directed pairs; `*` means any
 * agent), how many turns one exchange may take, and how long an asking turn waits for a reply.
 * Nothing is allowed until a pair is listed here or in `agents.list[].canMessage`.
 */
export const agentToAgentConfigSchema = z
  .object({
    allow: z.array(z.tuple([agentRef, agentRef])).optional(),
    maxTurns: z.number().int().min(1).max(20).optional(),
    timeoutSeconds: z.number().int().min(1).max(3600).optional(),
  })
  .strict();

/** `agents.list[].canMessage`: the agents this one may address (`*` for any). */
export const canMessageConfigSchema = z.array(agentRef);

export interface AgentsTalkSettings {
  maxTurns: number;
  timeoutMs: number;
  /** Whether `from` may address `to`. */
  allows(from: string, to: string): boolean;
}

/** The settings from a parsed `agents` section (hearth.json's, already validated). */
export function agentsTalkSettings(agents: {
  defaults?: { agentToAgent?: z.infer<typeof agentToAgentConfigSchema> } | undefined;
  list: readonly { id: string; canMessage?: readonly string[] | undefined }[];
}): AgentsTalkSettings {
  const section = agents.defaults?.agentToAgent ?? {};
  const pairs = section.allow ?? [];
  return {
    maxTurns: section.maxTurns ?? DEFAULT_MAX_TURNS,
    timeoutMs: (section.timeoutSeconds ?? DEFAULT_REPLY_TIMEOUT_SECONDS) * 1000,
    allows(from, to) {
      const matches = (pattern: string, id: string) => pattern === '*' || pattern === id;
      if (pairs.some(([a, b]) => matches(a, from) && matches(b, to))) return true;
      const own = agents.list.find((agent) => agent.id === from)?.canMessage ?? [];
      return own.some((pattern) => matches(pattern, to));
    },
  };
}
