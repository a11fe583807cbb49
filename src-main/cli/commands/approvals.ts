import type { Command } from 'commander';
import {
  approvalsHistoryPath,
  createApprovalHistory,
  parseApproveCommand,
  suggestAllowlist,
} from '../../exec/index.js';
import { type CliContext, CliError } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';

/** `hearth approvals list|resolve|suggest`. */
export function registerApprovalsCommands(program: Command, context: CliContext): void {
  const approvals = program.command('approvals').description('Exec approvals');

  approvals
    .command('suggest')
    .description('Propose allowlist entries from past approval decisions')
    .option('--min <count>', 'approvals needed before a program is proposed', '3')
    .option('--json', 'print one JSON entry per line')
    .action(async (options: { min: string; json?: boolean }) => {
      const minApprovals = Number(options.min);
      if (!Number.isInteger(minApprovals) || minApprovals < 1)
        throw new CliError(`--min must be a positive whole number, got "${options.min}"`);
      const history = await createApprovalHistory(approvalsHistoryPath(context.paths().stateDir)).read();
      const suggestions = suggestAllowlist(history, { minApprovals });
      if (options.json) {
        for (const suggestion of suggestions) context.stdout(`${JSON.stringify(suggestion)}\n`);
        return;
      }
      if (suggestions.length === 0) {
        context.stdout(`no suggestions yet (${history.length} decisions recorded)\n`);
        return;
      }
      for (const { entry, approvals: count, example } of suggestions)
        context.stdout(`${JSON.stringify(entry)}  allowed ${count}×, e.g. ${example}\n`);
    });

  withGatewayOptions(approvals.command('list').description('Pending approval requests')).action(
    async (options: GatewayOptions) => {
      const pending = await withGatewayClient(context, options, ['operator.approvals'], (client) =>
        client.request('exec.approval.list', {}),
      );
      if (options.json) {
        context.stdout(`${JSON.stringify(pending)}\n`);
        return;
      }
      if (pending.length === 0) context.stdout('no pending approvals\n');
      for (const request of pending)
        context.stdout(`${request.id}  ${request.agentId}  ${request.cwd}  ${request.command}\n`);
    },
  );

  withGatewayOptions(
    approvals
      .command('resolve')
      .description('Answer a pending request')
      .argument('<id>', 'approval id')
      .argument('<decision>', 'allow-once | allow-session | allow-always | deny')
      .option('--scope <scope>', 'with allow-always: binary | exact | folder (commands), tool | server | exact (tools)')
      .option('--until <date>', 'with allow-always: the rule ends then (YYYY-MM-DD or an ISO time)'),
  ).action(async (id: string, decision: string, options: GatewayOptions & { scope?: string; until?: string }) => {
    const parsed = parseApproveCommand(`/approve ${id} ${decision}`);
    if (!parsed?.ok) throw new CliError(parsed?.error.replace('/approve', 'hearth approvals resolve') ?? 'bad input');
    const scopes = ['binary', 'exact', 'folder', 'tool', 'server'] as const;
    const scope = scopes.find((candidate) => candidate === options.scope);
    if (options.scope !== undefined && !scope)
      throw new CliError(`--scope must be one of ${scopes.join(', ')}, got "${options.scope}"`);
    if ((scope || options.until) && parsed.decision !== 'allow-always')
      throw new CliError('--scope and --until go with allow-always');
    const said = parsed.remember ? 'allow-session' : parsed.decision;
    await withGatewayClient(context, options, ['operator.approvals'], (client) =>
      client.request('exec.approval.resolve', {
        id: parsed.id,
        decision: parsed.remember ? 'allow-session' : parsed.decision,
        ...(scope ? { allowAlwaysScope: scope } : {}),
        ...(options.until ? { until: options.until } : {}),
      }),
    );
    context.stdout(`${parsed.id}: ${said}\n`);
  });
}
