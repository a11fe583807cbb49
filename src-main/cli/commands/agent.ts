import type { Command } from 'commander';
import type { AgentPauseState } from '../../protocol/methods/agent.js';
import type { CliContext } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';

/** One line a person reads: paused or running, since when, why. */
function describePause(state: AgentPauseState): string {
  if (!state.paused) return 'running: new messages, heartbeats and cron runs are answered\n';
  const since = state.since !== undefined ? ` since ${new Date(state.since).toISOString()}` : '';
  const why = state.problem ? `\n${state.problem}` : state.reason ? ` (${state.reason})` : '';
  return `paused${since}${why}: new messages, heartbeats and cron runs wait for \`hearth agent resume\`\n`;
}

/** `hearth agent pause|resume|status`: the tray's "Pause agent" from a terminal (agent.pause). */
export function registerAgentCommands(program: Command, context: CliContext): void {
  const agent = program.command('agent').description('Pause or resume the agent (it stays paused across restarts)');
  const print = (options: GatewayOptions, state: AgentPauseState) =>
    context.stdout(options.json ? `${JSON.stringify(state)}\n` : describePause(state));

  withGatewayOptions(
    agent
      .command('pause')
      .description('Refuse new messages, heartbeats and cron runs until resumed (runs in flight finish)')
      .option('--reason <text>', 'why, shown with the pause everywhere'),
  ).action(async (options: GatewayOptions & { reason?: string }) => {
    const state = await withGatewayClient(context, options, ['operator.write'], (client) =>
      client.request('agent.pause', options.reason !== undefined ? { reason: options.reason } : {}),
    );
    print(options, state);
  });

  withGatewayOptions(agent.command('resume').description('Answer new messages, heartbeats and cron runs again')).action(
    async (options: GatewayOptions) => {
      const state = await withGatewayClient(context, options, ['operator.write'], (client) =>
        client.request('agent.resume', {}),
      );
      print(options, state);
    },
  );

  withGatewayOptions(agent.command('status').description('Whether the agent is paused, since when and why')).action(
    async (options: GatewayOptions) => {
      const state = await withGatewayClient(context, options, ['operator.read'], (client) =>
        client.request('agent.pause.status', {}),
      );
      print(options, state);
    },
  );
}
