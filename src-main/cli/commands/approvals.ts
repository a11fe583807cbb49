import type { Command } from 'commander';
import {
  approvalsHistoryPath,
  createApprovalHistory,
  parseApproveCommand,
  suggestAllowlist,
} from '../../exec/index.js';
import { GatewayError } from '../../protocol/index.js';
import { type CliContext, CliError } from '../cli-context.js';
import { connectToGateway, localGatewayTarget } from '../gateway-connection.js';

interface GatewayOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

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
      const pending = await withClient(context, options, (client) => client.request('exec.approval.list', {}));
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
      .argument('<decision>', 'allow-once | allow-always | deny'),
  ).action(async (id: string, decision: string, options: GatewayOptions) => {
    const parsed = parseApproveCommand(`/approve ${id} ${decision}`);
    if (!parsed?.ok) throw new CliError(parsed?.error.replace('/approve', 'hearth approvals resolve') ?? 'bad input');
    await withClient(context, options, (client) =>
      client.request('exec.approval.resolve', { id: parsed.id, decision: parsed.decision }),
    );
    context.stdout(`${parsed.id}: ${parsed.decision}\n`);
  });
}

function withGatewayOptions(command: Command): Command {
  return command
    .option('--url <url>', 'gateway URL (default: the local gateway)')
    .option('--token <token>', 'gateway token')
    .option('--json', 'print JSON');
}

async function withClient<T>(
  context: CliContext,
  options: GatewayOptions,
  run: (client: Awaited<ReturnType<typeof connectToGateway>>) => Promise<T>,
): Promise<T> {
  const target = await localGatewayTarget(context.paths(), {
    url: options.url,
    token: options.token,
    env: context.env,
  });
  const client = await connectToGateway(target, { scopes: ['operator.approvals'] });
  try {
    return await run(client);
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(`${error.message}`);
    throw error;
  } finally {
    client.dispose();
  }
}
