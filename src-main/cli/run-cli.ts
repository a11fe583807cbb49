import { Command, CommanderError } from 'commander';
import { HEARTH_VERSION } from '../host/version.js';
import { type CliContext, CliError } from './cli-context.js';

type Register = (program: Command, context: CliContext) => void;

// Command groups load on demand: `hearth gateway run` must not pay for LanceDB or
// the bash parser at start-up. Keys are the top-level command names each group adds.
const groups: Record<string, () => Promise<Register>> = {
  gateway: async () => (await import('./commands/gateway.js')).registerGatewayCommands,
  config: async () => (await import('./commands/config.js')).registerConfigCommands,
  doctor: async () => {
    const { registerDoctorCommand } = await import('./commands/doctor.js');
    return (program, context) =>
      registerDoctorCommand(program, context, {
        secretStore: async () => {
          const { openSecretStore } = await import('../secrets/index.js');
          const { silentLogger } = await import('../base/logger.js');
          const { store } = await openSecretStore({ paths: context.paths(), log: silentLogger, env: context.env });
          return { backend: store.backend, warning: store.warning };
        },
      });
  },
  exec: async () => (await import('./commands/exec.js')).registerExecCommands,
  approvals: async () => (await import('./commands/approvals.js')).registerApprovalsCommands,
  permissions: async () => (await import('./commands/permissions.js')).registerPermissionsCommands,
  memory: async () => (await import('./commands/memory.js')).registerMemoryCommands,
  trace: async () => (await import('./commands/trace.js')).registerTraceCommands,
  cron: async () => (await import('./commands/cron.js')).registerCronCommands,
  usage: async () => (await import('./commands/usage.js')).registerUsageCommands,
  devices: async () => (await import('./commands/devices.js')).registerDevicesCommands,
  pair: async () => (await import('./commands/devices.js')).registerDevicesCommands,
  auth: async () => (await import('./commands/auth.js')).registerAuthCommands,
  mcp: async () => (await import('./commands/mcp.js')).registerMcpCommands,
  acp: async () => (await import('./commands/acp.js')).registerAcpCommands,
  tokens: async () => (await import('./commands/tokens.js')).registerTokensCommands,
  channels: async () => (await import('./commands/channels.js')).registerChannelsCommands,
  skills: async () => (await import('./commands/skills.js')).registerSkillsCommands,
  agents: async () => (await import('./commands/agents.js')).registerAgentsCommands,
  agent: async () => (await import('./commands/agent.js')).registerAgentCommands,
  import: async () => (await import('./commands/import.js')).registerImportCommands,
};

/** The first word that is not an option (or an option's value): the command group asked for. */
function requestedGroup(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--home') {
      i += 1;
      continue;
    }
    if (!word.startsWith('-')) return word;
  }
  return undefined;
}

export async function buildProgram(context: CliContext, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('hearth')
    .description('Hearth: a local-first personal AI agent')
    .version(HEARTH_VERSION)
    .option('--home <dir>', 'state folder (default: HEARTH_HOME or ~/.hearth)')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (text) => context.stdout(text), writeErr: (text) => context.stderr(text) })
    .hook('preAction', (command) => {
      const home = command.optsWithGlobals().home as string | undefined;
      context.setHomeOverride(home);
    });
  const wanted = requestedGroup(argv);
  const loaders = wanted && groups[wanted] ? [groups[wanted]] : [...new Set(Object.values(groups))];
  const registered = new Set<Register>();
  for (const load of loaders) {
    const register = await load();
    if (registered.has(register)) continue;
    registered.add(register);
    register(program, context);
  }
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI; returns the exit code. User-facing failures are one plain line, never a stack trace. */
export async function runCli(argv: string[], context: CliContext): Promise<number> {
  try {
    const program = await buildProgram(context, argv);
    await program.parseAsync(argv, { from: 'user' });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CliError) {
      context.stderr(`hearth: ${error.message}\n`);
      return error.exitCode;
    }
    context.stderr(`hearth: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (context.env.HEARTH_DEBUG) context.stderr(`${(error as Error).stack ?? ''}\n`);
    return 1;
  }
}
