import type { Command } from 'commander';
import type { AgentBindingParams } from '../../protocol/methods/agents-admin.js';
import { type CliContext, CliError } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';

interface AgentOptions extends GatewayOptions {
  model?: string;
  fallback?: string[];
  fallbacks?: string;
  workspace?: string;
  toolProfile?: string;
  tools?: string;
  emoji?: string;
  avatar?: string;
  engine?: string;
  engineModel?: string;
  engineAccess?: string;
  engineFor?: string;
  engineCommand?: string;
  memoryScope?: string;
  execSecurity?: string;
  execAsk?: string;
  execAskFallback?: string;
  execInherit?: boolean;
  bind?: string[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];
const peerKinds = ['direct', 'group', 'channel'];

/**
 * One `--bind`: `telegram`, `telegram,account=work-bot`, `telegram,peer=direct:12345`,
 * `discord,guild=987`; the parts say which messages of the channel the agent answers.
 */
export function parseBinding(spec: string): AgentBindingParams {
  const [channel, ...parts] = spec.split(',').map((part) => part.trim());
  if (!channel) throw new CliError(`--bind "${spec}": start with the channel (telegram, discord, slack…)`);
  const match: AgentBindingParams = { channel };
  for (const part of parts) {
    const [key, ...rest] = part.split('=');
    const value = rest.join('=');
    if (!value) throw new CliError(`--bind "${spec}": "${part}" needs a value (account=…, peer=kind:id, guild=…)`);
    if (key === 'account') match.accountId = value;
    else if (key === 'guild') match.guildId = value;
    else if (key === 'peer') {
      const at = value.indexOf(':');
      const kind = value.slice(0, at);
      const id = value.slice(at + 1);
      if (at < 0 || !peerKinds.includes(kind) || !id)
        throw new CliError(`--bind "${spec}": peer is kind:id, kind one of ${peerKinds.join(', ')}`);
      match.peer = { kind: kind as 'direct' | 'group' | 'channel', id };
    } else throw new CliError(`--bind "${spec}": unknown part "${key}" (account, peer or guild)`);
  }
  return match;
}

function oneOf(flag: string, value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value)) throw new CliError(`${flag} "${value}": use one of ${allowed.join(', ')}`);
  return value;
}

function engineOf(options: AgentOptions) {
  const detail = options.engineModel ?? options.engineAccess ?? options.engineFor ?? options.engineCommand;
  if (options.engine === undefined) {
    if (detail !== undefined) throw new CliError('--engine-model, --engine-access, --engine-for need --engine');
    return {};
  }
  if (options.engine === 'hearth') {
    if (detail !== undefined) throw new CliError('--engine hearth takes no --engine-* options');
    return { engine: 'hearth' as const };
  }
  return {
    engine: {
      cli: options.engine,
      ...(options.engineModel ? { model: options.engineModel } : {}),
      ...(options.engineAccess
        ? {
            access: oneOf('--engine-access', options.engineAccess, ['read-only', 'workspace-write']) as
              | 'read-only'
              | 'workspace-write',
          }
        : {}),
      ...(options.engineFor
        ? { for: oneOf('--engine-for', options.engineFor, ['all', 'subagents']) as 'all' | 'subagents' }
        : {}),
      ...(options.engineCommand ? { command: options.engineCommand } : {}),
    },
  };
}

function execOf(options: AgentOptions) {
  const modes = ['deny', 'allowlist', 'full'];
  const parts = {
    ...(options.execSecurity ? { security: oneOf('--exec-security', options.execSecurity, modes) } : {}),
    ...(options.execAsk ? { ask: oneOf('--exec-ask', options.execAsk, ['off', 'on-miss', 'always']) } : {}),
    ...(options.execAskFallback ? { askFallback: oneOf('--exec-ask-fallback', options.execAskFallback, modes) } : {}),
  } as { security?: 'deny' | 'allowlist' | 'full'; ask?: 'off' | 'on-miss' | 'always'; askFallback?: 'deny' };
  if (options.execInherit) {
    if (Object.keys(parts).length) throw new CliError('--exec-inherit cannot go with --exec-security/--exec-ask');
    return { exec: null };
  }
  return Object.keys(parts).length ? { exec: parts } : {};
}

/** The settings the options give, in agents.create / agents.update's shape; checked here where the CLI can say which flag. */
export function settingsOf(options: AgentOptions) {
  if (options.fallback && options.fallbacks !== undefined)
    throw new CliError('use --fallback (repeated) or --fallbacks (a list), not both');
  const fallbacks =
    options.fallback ??
    options.fallbacks
      ?.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  const toolProfile = options.toolProfile ?? options.tools;
  const bindings =
    options.bind === undefined
      ? undefined
      : options.bind.includes('none')
        ? []
        : options.bind.map((spec) => parseBinding(spec));
  return {
    ...(options.model !== undefined ? { model: options.model === 'none' ? null : options.model } : {}),
    ...(fallbacks !== undefined ? { fallbacks } : {}),
    ...(options.workspace !== undefined ? { workspace: options.workspace } : {}),
    ...(toolProfile !== undefined
      ? {
          toolProfile: oneOf('--tool-profile', toolProfile, ['minimal', 'coding', 'full', 'custom']) as
            | 'minimal'
            | 'coding'
            | 'full'
            | 'custom',
        }
      : {}),
    ...(options.emoji !== undefined ? { emoji: options.emoji } : {}),
    ...(options.avatar !== undefined ? { avatar: options.avatar === 'none' ? '' : options.avatar } : {}),
    ...(options.memoryScope !== undefined
      ? {
          memoryScope:
            options.memoryScope === 'inherit'
              ? null
              : (oneOf('--memory-scope', options.memoryScope, ['per-agent', 'per-user', 'inherit']) as
                  | 'per-agent'
                  | 'per-user'),
        }
      : {}),
    ...engineOf(options),
    ...execOf(options),
    ...(bindings !== undefined ? { bindings } : {}),
  };
}

function withAgentOptions(command: Command): Command {
  return withGatewayOptions(
    command
      .option('--model <provider/model>', 'its model ("none" on edit: use agents.defaults)')
      .option('--fallback <provider/model>', 'a model tried after it (repeat for more, in order)', collect)
      .option('--fallbacks <list>', 'comma-separated models tried after it')
      .option('--workspace <folder>', 'its workspace (absolute or ~/…; default HEARTH_HOME/workspace-<id>)')
      .option('--tool-profile <profile>', 'tool profile: minimal, coding, full or custom')
      .option('--tools <profile>', 'the same as --tool-profile')
      .option('--emoji <emoji>', 'its avatar: an emoji shown beside its name')
      .option('--avatar <url>', 'its avatar: an image (https:// or data:image/… URL; "none" clears)')
      .option('--engine <engine>', 'who answers: hearth (its model), claude-code or codex (an agent CLI)')
      .option('--engine-model <model>', "with a CLI engine: the CLI's --model")
      .option('--engine-access <access>', 'with a CLI engine: read-only (default) or workspace-write')
      .option('--engine-for <turns>', 'with a CLI engine: all (default) or subagents (only the ones it spawns)')
      .option('--engine-command <program>', 'with a CLI engine: the program to run (default claude / codex)')
      .option('--memory-scope <scope>', 'per-agent, per-user or inherit (memory.scope)')
      .option('--exec-security <mode>', 'its exec policy: deny, allowlist or full')
      .option('--exec-ask <when>', 'its exec policy: ask off, on-miss or always')
      .option('--exec-ask-fallback <mode>', 'its exec policy when no one answers: deny, allowlist or full')
      .option('--exec-inherit', 'drop its own exec policy (use tools.exec)')
      .option(
        '--bind <channel[,account=ID][,peer=kind:ID][,guild=ID]>',
        'a channel (or one chat of it) this agent answers; repeat for more; replaces its bindings; "none" removes them',
        collect,
      ),
  );
}

function describeModel(primary: string | null | undefined, fallbacks: readonly string[]): string {
  if (!primary) return '(default model)';
  return `${primary}${fallbacks.length ? ` → ${fallbacks.join(' → ')}` : ''}`;
}

/** `hearth agents list|show|add|edit|remove`: the agents in hearth.json, edited through the running gateway. */
export function registerAgentsCommands(program: Command, context: CliContext): void {
  const agents = program
    .command('agents')
    .description('your agents: list, add, edit, remove (docs/AGENT.md "Your agents")');

  withGatewayOptions(agents.command('list').description('every agent, its model and workspace')).action(
    async (options: GatewayOptions) => {
      const result = await withGatewayClient(context, options, ['operator.read'], (client) =>
        client.request('agents.list', {}),
      );
      if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
      const lines = result.agents.map((agent) => {
        const model = describeModel(agent.model.primary, agent.model.fallbacks);
        return `${agent.id}${agent.name && agent.name !== agent.id ? ` (${agent.name})` : ''}  ${model}  ${agent.workspace}`;
      });
      context.stdout(`${lines.join('\n')}\n`);
    },
  );

  withGatewayOptions(agents.command('show <id>').description('every setting of one agent')).action(
    async (agentId: string, options: GatewayOptions) => {
      const agent = await withGatewayClient(context, options, ['operator.read'], (client) =>
        client.request('agents.get', { agentId }),
      );
      if (options.json) return context.stdout(`${JSON.stringify(agent, null, 2)}\n`);
      const engine =
        agent.engine === 'hearth'
          ? 'hearth'
          : `${agent.engine.cli}${agent.engine.for === 'subagents' ? ' (subagents)' : ''}`;
      const exec = agent.exec
        ? Object.entries(agent.exec)
            .map(([key, value]) => `${key}=${value}`)
            .join(' ')
        : '(tools.exec)';
      const bindings = agent.bindings.length
        ? agent.bindings.map((match) => formatBinding(match)).join('; ')
        : agent.isDefault
          ? '(none: answers whatever no binding routes elsewhere)'
          : '(none)';
      const rows = [
        ['id', agent.agentId],
        ['name', `${agent.emoji ? `${agent.emoji} ` : ''}${agent.name}`],
        ['workspace', agent.workspace],
        ['model', agent.model ? describeModel(agent.model, agent.fallbacks) : '(agents.defaults)'],
        ['engine', engine],
        ['tool profile', agent.toolProfile ?? '(default)'],
        ['memory scope', agent.memoryScope ?? '(memory.scope)'],
        ['exec', exec],
        ['bindings', bindings],
      ];
      context.stdout(`${rows.map(([key, value]) => `${key!.padEnd(13)}${value}`).join('\n')}\n`);
    },
  );

  withAgentOptions(
    agents
      .command('add <name>')
      .description('create an agent (its workspace is seeded with SOUL.md, IDENTITY.md, USER.md…)')
      .option('--id <id>', 'its id (default: made from the name)'),
  ).action(async (name: string, options: AgentOptions & { id?: string }) => {
    const settings = settingsOf(options);
    const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
      client.request('agents.create', {
        name,
        ...(options.id ? { id: options.id } : {}),
        ...settings,
        model: settings.model ?? undefined,
        memoryScope: settings.memoryScope ?? undefined,
        exec: settings.exec ?? undefined,
      }),
    );
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    context.stdout(`created agent ${result.agentId} (${result.name}), workspace ${result.workspace}\n`);
  });

  withAgentOptions(
    agents
      .command('edit <id>')
      .alias('set')
      .description("change an agent's name, model, fallbacks, engine, tools, memory scope, exec policy or bindings"),
  )
    .option('--name <name>', 'its display name')
    .action(async (agentId: string, options: AgentOptions & { name?: string }) => {
      const settings = { ...settingsOf(options), ...(options.name !== undefined ? { name: options.name } : {}) };
      if (Object.keys(settings).length === 0)
        throw new CliError('nothing to change: pass --name, --model, --engine, --bind… (hearth agents edit --help)');
      const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
        client.request('agents.update', { agentId, ...settings }),
      );
      if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
      context.stdout(`updated agent ${result.agentId}\n`);
    });

  withGatewayOptions(
    agents
      .command('remove <id>')
      .description('remove an agent from hearth.json (its workspace stays on disk unless --delete-files)')
      .option('--delete-files', 'also delete its sessions, memory and (inside HEARTH_HOME) its workspace'),
  ).action(async (agentId: string, options: GatewayOptions & { deleteFiles?: boolean }) => {
    const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
      client.request('agents.delete', { agentId, deleteFiles: options.deleteFiles === true }),
    );
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    const bindings = result.removedBindings ? `, ${result.removedBindings} binding(s) removed` : '';
    const files = result.removedFiles.length ? `; deleted ${result.removedFiles.join(', ')}` : '';
    const kept = result.keptWorkspace
      ? `; kept its workspace ${result.keptWorkspace} (outside HEARTH_HOME)`
      : result.removedFiles.length
        ? ''
        : '; its workspace, sessions and memory stay on disk (--delete-files removes them)';
    context.stdout(`removed agent ${result.agentId}${bindings}${files}${kept}\n`);
  });
}

function formatBinding(match: AgentBindingParams): string {
  return [
    match.channel,
    ...(match.accountId ? [`account=${match.accountId}`] : []),
    ...(match.peer ? [`peer=${match.peer.kind}:${match.peer.id}`] : []),
    ...(match.guildId ? [`guild=${match.guildId}`] : []),
  ].join(',');
}
