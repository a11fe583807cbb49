import { z } from 'zod';
import type { SubagentView } from '../../protocol/methods/subagents.js';
import type { Subagents } from '../../subagents/index.js';
import type { ToolDefinition, ToolOutput } from '../tool.js';

const costOf = (view: SubagentView) =>
  `${view.cost.calls} call(s), ${view.cost.inputTokens + view.cost.outputTokens} tokens, $${view.cost.costUsd.toFixed(4)}`;

function rowOf(view: SubagentView): string {
  const name = view.label ? ` "${view.label}"` : '';
  return `${view.id}${name} — ${view.status}, depth ${view.depth}, ${view.role}, ${view.mode}, ${view.steps} step(s), ${costOf(view)}; task: ${view.task.slice(0, 120)}`;
}

/**
 * The model's subagent tools: `sessions_spawn` (a task in a child session, foreground or
 * background), `subagents_list` and `subagent_abort` for the ones it spawned (a leaf controls none).
 */
export function createSubagentTools(subagents: Subagents): ToolDefinition[] {
  const refuseLeaf = (sessionKey: string): ToolOutput | undefined => {
    const self = subagents.ofSession(sessionKey);
    return self?.controlScope === 'none'
      ? { output: `this subagent (${self.id}) is a leaf: it has no subagents to list or abort`, isError: true }
      : undefined;
  };

  const spawnInput = z
    .object({
      task: z.string().min(1).max(20_000).describe('what the subagent should do, with everything it needs to know'),
      mode: z.enum(['foreground', 'background']).optional().describe('foreground (default): wait for the result'),
      role: z
        .enum(['orchestrator', 'leaf'])
        .optional()
        .describe('orchestrator may spawn its own; leaf (default) may not'),
      label: z.string().min(1).max(80).optional(),
    })
    .strict();
  const spawn: ToolDefinition<z.infer<typeof spawnInput>> = {
    name: 'sessions_spawn',
    description:
      'Run a task in a subagent (its own session). Foreground returns its result; background returns at once and you are told when it ends.',
    inputSchema: spawnInput,
    async execute(input, context) {
      const result = await subagents.spawn({
        parent: { agentId: context.agentId, sessionKey: context.sessionKey },
        task: input.task,
        mode: input.mode ?? 'foreground',
        role: input.role ?? 'leaf',
        ...(input.label ? { label: input.label } : {}),
        ...(context.toolCallId ? { toolCallId: context.toolCallId } : {}),
        signal: context.signal,
      });
      if (!result.ok) return { output: result.reason, isError: true };
      const view = result.subagent;
      if (view.mode === 'background') {
        return {
          output: `Subagent ${view.id} started in the background (${view.sessionKey}, depth ${view.depth}, ${view.role}). You will be told when it ends; subagents_list shows its progress.`,
        };
      }
      if (view.status === 'ok') return { output: `Subagent ${view.id} finished (${costOf(view)}):\n\n${view.result}` };
      return { output: `Subagent ${view.id} ended ${view.status}: ${view.error ?? 'no result'}`, isError: true };
    },
  };

  const listInput = z.object({ running: z.boolean().optional() }).strict();
  const list: ToolDefinition<z.infer<typeof listInput>> = {
    name: 'subagents_list',
    description: 'List the subagents you spawned (and theirs): status, steps, cost.',
    inputSchema: listInput,
    async execute(input, context) {
      const refused = refuseLeaf(context.sessionKey);
      if (refused) return refused;
      const rows = subagents.list({ under: context.sessionKey, running: input.running ?? false });
      return { output: rows.length === 0 ? 'No subagents.' : rows.map(rowOf).join('\n') };
    },
  };

  const abortInput = z.object({ id: z.string().min(1) }).strict();
  const abort: ToolDefinition<z.infer<typeof abortInput>> = {
    name: 'subagent_abort',
    description: 'Abort a subagent you spawned (and the ones it spawned).',
    inputSchema: abortInput,
    async execute({ id }, context) {
      const refused = refuseLeaf(context.sessionKey);
      if (refused) return refused;
      const mine = subagents.list({ under: context.sessionKey }).find((view) => view.id === id);
      if (!mine)
        return { output: `no subagent "${id}" under this session (subagents_list shows yours)`, isError: true };
      if (mine.status !== 'running') return { output: `subagent ${id} already ended (${mine.status})` };
      const aborted = subagents.abort(id);
      return { output: `Aborted ${aborted.length} subagent(s): ${aborted.join(', ')}` };
    },
  };
  return [spawn, list, abort] as ToolDefinition[];
}
