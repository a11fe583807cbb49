import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';

interface AgentOptions extends GatewayOptions {
  model?: string;
  fallbacks?: string;
  workspace?: string;
  tools?: 'minimal' | 'coding' | 'full' | 'custom';
  emoji?: string;
}

function settingsOf(options: AgentOptions) {
  return {
    ...(options.model !== undefined ? { model: options.model === 'none' ? null : options.model } : {}),
    ...(options.fallbacks !== undefined
      ? {
          fallbacks: options.fallbacks
            .split(',')
            .map((entry) => entry.trim())
            .filter(Boolean),
        }
      : {}),
    ...(options.workspace !== undefined ? { workspace: options.workspace } : {}),
    ...(options.tools !== undefined ? { toolProfile: options.tools } : {}),
    ...(options.emoji !== undefined ? { emoji: options.emoji } : {}),
  };
}

function withAgentOptions(command: Command): Command {
  return withGatewayOptions(
    command
      .option('--model <provider/model>', 'its model ("none" on set: use agents.defaults)')
      .option('--fallbacks <list>', 'comma-separated models tried after it')
      .option('--workspace <folder>', 'its workspace (absolute or ~/…; default HEARTH_HOME/workspace-<id>)')
      .option('--tools <profile>', 'tool profile: minimal, coding, full or custom')
      .option('--emoji <emoji>', 'shown beside its name'),
  );
}

/** `hearth agents list|add|set|remove`: the agents in hearth.json, edited through the running gateway. */
export function registerAgentsCommands(program: Command, context: CliContext): void {
  const agents = program
    .command('agents')
    .description('your agents: list, add, change, remove (docs/AGENT.md "Your agents")');

  withGatewayOptions(agents.command('list').description('every agent, its model and workspace')).action(
    async (options: GatewayOptions) => {
      const result = await withGatewayClient(context, options, ['operator.read'], (client) =>
        client.request('agents.list', {}),
      );
      if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
      const lines = result.agents.map((agent) => {
        const model = agent.model.primary
          ? `${agent.model.primary}${agent.model.fallbacks.length ? ` → ${agent.model.fallbacks.join(' → ')}` : ''}`
          : '(default model)';
        return `${agent.id}${agent.name && agent.name !== agent.id ? ` (${agent.name})` : ''}  ${model}  ${agent.workspace}`;
      });
      context.stdout(`${lines.join('\n')}\n`);
    },
  );

  withAgentOptions(
    agents
      .command('add <name>')
      .description('create an agent (its workspace is seeded with SOUL.md, IDENTITY.md, USER.md…)')
      .option('--id <id>', 'its id (default: made from the name)'),
  ).action(async (name: string, options: AgentOptions & { id?: string }) => {
    const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
      client.request('agents.create', {
        name,
        ...(options.id ? { id: options.id } : {}),
        ...settingsOf(options),
        model: options.model && options.model !== 'none' ? options.model : undefined,
      }),
    );
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    context.stdout(`created agent ${result.agentId} (${result.name}), workspace ${result.workspace}\n`);
  });

  withAgentOptions(
    agents.command('set <id>').description("change an agent's model, fallbacks, workspace, tools or name"),
  )
    .option('--name <name>', 'its display name')
    .action(async (agentId: string, options: AgentOptions & { name?: string }) => {
      const settings = { ...settingsOf(options), ...(options.name !== undefined ? { name: options.name } : {}) };
      const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
        client.request('agents.update', { agentId, ...settings }),
      );
      if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
      context.stdout(`updated agent ${result.agentId}\n`);
    });

  withGatewayOptions(
    agents
      .command('remove <id>')
      .description('remove an agent from hearth.json (its files stay unless --delete-files)')
      .option('--delete-files', 'also delete its sessions, memory and (inside HEARTH_HOME) its workspace'),
  ).action(async (agentId: string, options: GatewayOptions & { deleteFiles?: boolean }) => {
    const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
      client.request('agents.delete', { agentId, deleteFiles: options.deleteFiles === true }),
    );
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    const bindings = result.removedBindings ? `, ${result.removedBindings} binding(s) removed` : '';
    const files = result.removedFiles.length ? `; deleted ${result.removedFiles.join(', ')}` : '';
    const kept = result.keptWorkspace ? `; kept its workspace ${result.keptWorkspace} (outside HEARTH_HOME)` : '';
    context.stdout(`removed agent ${result.agentId}${bindings}${files}${kept}\n`);
  });
}
