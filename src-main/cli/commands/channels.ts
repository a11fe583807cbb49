import type { Command } from 'commander';
import { silentLogger } from '../../base/index.js';
import type { GatewayClient } from '../../protocol/client/index.js';
import type { ChannelPairingRequestView, ChannelView } from '../../protocol/methods/channels.js';
import { openSecretStore } from '../../secrets/index.js';
import { type CliContext, CliError } from '../cli-context.js';
import { withGatewayClient } from '../gateway-command.js';

interface ConnectionOptions {
  url?: string;
  token?: string;
}

/** Talks to the local gateway (or the one `--url` names) with the CLI's default scopes. */
function withLocalGateway<T>(
  context: CliContext,
  options: ConnectionOptions,
  run: (client: GatewayClient) => Promise<T>,
): Promise<T> {
  return withGatewayClient(context, options, undefined, run);
}

function connectionOptions(command: Command): Command {
  return command
    .option('--url <url>', 'gateway URL (default: the local gateway)')
    .option('--token <token>', 'gateway token (default: the stored one)');
}

const when = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : 'never');

function describeChannel(channel: ChannelView): string {
  const who = channel.account ? ` as ${channel.account}` : '';
  const lines = [`${channel.id}  ${channel.name}: ${channel.state}${who}`];
  if (channel.configured)
    lines.push(`    DM policy ${channel.dmPolicy ?? '?'}, last message ${when(channel.lastMessageAt)}`);
  if (channel.error) lines.push(`    ${channel.error}`);
  else if (channel.lastError) lines.push(`    last error: ${channel.lastError}`);
  return lines.join('\n');
}

function describeRequest(request: ChannelPairingRequestView): string {
  const minutes = Math.max(0, Math.round((request.expiresAt - Date.now()) / 60_000));
  return `${request.code}  ${request.channel} sender ${request.senderId}${request.senderName ? ` (${request.senderName})` : ''}, expires in ${minutes} min`;
}

/**
 * `hearth channels list|status|restart|token|pairing list|approve|reject`: the channels the
 * gateway runs, their health, and the DM pairing requests a person approves. `token` reads the
 * secret from stdin (never argv: it would land in shell history) into the secret store.
 */
export function registerChannelsCommands(program: Command, context: CliContext): void {
  const channels = program
    .command('channels')
    .description('messaging channels (Telegram…): status, tokens, DM pairing');

  const list = async (options: ConnectionOptions & { json?: boolean }) => {
    const result = await withLocalGateway(context, options, (client) => client.request('channels.list', {}));
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    context.stdout(`${result.channels.map(describeChannel).join('\n') || 'no channel plugins installed'}\n`);
  };
  connectionOptions(
    channels.command('list').description('each channel and its state').option('--json', 'print JSON'),
  ).action(list);
  connectionOptions(
    channels.command('status').description('health of each channel, with its errors').option('--json', 'print JSON'),
  ).action(list);

  connectionOptions(channels.command('restart <channel>').description('stop and start one channel')).action(
    async (channel: string, options: ConnectionOptions) => {
      const result = await withLocalGateway(context, options, (client) =>
        client.request('channels.restart', { channel }),
      );
      context.stdout(`${describeChannel(result.channel)}\n`);
    },
  );

  connectionOptions(
    channels
      .command('token <channel>')
      .description(
        'store the bot token read from stdin in the secret store (e.g. `hearth channels token telegram < token.txt`)',
      )
      .option('--secret <account>', 'secret store entry (default: channels.<channel>.token)'),
  ).action(async (channel: string, options: ConnectionOptions & { secret?: string }) => {
    const token = (await context.readStdin()).trim();
    if (!token) throw new CliError(`channels token: no token on stdin (pipe the ${channel} bot token in)`);
    const account = options.secret ?? `channels.${channel}.token`;
    const { store } = await openSecretStore({ paths: context.paths(), log: silentLogger, env: context.env });
    await store.set(account, token);
    context.stdout(`stored the ${channel} token in the ${store.backend} secret store as ${account}\n`);
    // A running gateway restarts the channel to use it; without one, it is used at the next start.
    try {
      const result = await withLocalGateway(context, options, (client) =>
        client.request('channels.restart', { channel }),
      );
      context.stdout(`${describeChannel(result.channel)}\n`);
    } catch (error) {
      context.stderr(
        `the gateway did not restart ${channel} (${(error as Error).message}); it uses the token at its next start\n`,
      );
    }
  });

  const pairing = channels.command('pairing').description('DM pairing requests from people the channel does not know');
  connectionOptions(
    pairing.command('list').description('pending requests and approved senders').option('--json', 'print JSON'),
  ).action(async (options: ConnectionOptions & { json?: boolean }) => {
    const result = await withLocalGateway(context, options, (client) => client.request('channels.pairing.list', {}));
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    context.stdout(
      `Pending (${result.requests.length}):\n${result.requests.map((r) => `  ${describeRequest(r)}`).join('\n') || '  none'}\n`,
    );
    context.stdout(
      `Paired (${result.paired.length}):\n${result.paired.map((p) => `  ${p.channel} sender ${p.senderId}${p.senderName ? ` (${p.senderName})` : ''}, since ${when(p.approvedAt)}`).join('\n') || '  none'}\n`,
    );
  });
  connectionOptions(
    pairing.command('approve <code>').description('let the sender of this code reach the agent'),
  ).action(async (code: string, options: ConnectionOptions) => {
    const { approved } = await withLocalGateway(context, options, (client) =>
      client.request('channels.pairing.approve', { code }),
    );
    context.stdout(
      `approved ${approved.channel} sender ${approved.senderId}${approved.senderName ? ` (${approved.senderName})` : ''}\n`,
    );
  });
  connectionOptions(pairing.command('reject <code>').description('drop a pairing request')).action(
    async (code: string, options: ConnectionOptions) => {
      const { rejected } = await withLocalGateway(context, options, (client) =>
        client.request('channels.pairing.reject', { code }),
      );
      context.stdout(`rejected ${rejected.channel} sender ${rejected.senderId}\n`);
    },
  );
}
