import { z } from 'zod';
import type { AgentsTalk } from '../../agents-talk/index.js';
import type { ToolDefinition } from '../tool.js';

/** `sessions_send`: ask another agent something, or hand it work; its reply is the result. */
export function createSessionsSendTool(talk: Pick<AgentsTalk, 'send'>): ToolDefinition {
  const input = z
    .object({
      agentId: z.string().min(1).describe('the agent to address'),
      message: z.string().min(1).max(20_000),
    })
    .strict();
  const tool: ToolDefinition<z.infer<typeof input>> = {
    name: 'sessions_send',
    description:
      'Send a message to another agent and wait for its reply (a question, or work to hand over). Allowed pairs are set in hearth.json; an exchange has a few turns at most.',
    inputSchema: input,
    async execute({ agentId, message }, context) {
      const result = await talk.send({
        from: { agentId: context.agentId, sessionKey: context.sessionKey },
        to: agentId,
        message,
        signal: context.signal,
      });
      if (!result.ok) return { output: result.reason, isError: true };
      return {
        output: `${agentId} replied (turn ${result.turn} of ${result.maxTurns} in this exchange; its session ${result.sessionKey}):\n\n${result.reply}`,
      };
    },
  };
  return tool as ToolDefinition;
}
