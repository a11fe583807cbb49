import type { Command } from 'commander';
import { silentLogger } from '../../base/index.js';
import type { GatewayClient } from '../../protocol/client/index.js';
import type {
  ChannelPairingRequestView,
  ChannelSetupDescription,
  ChannelSetupFieldView,
  ChannelView,
} from '../../protocol/methods/channels.js';
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

type SetupValue = string | number | boolean | null;

/** `--set key=value` as the field's kind wants it; throws naming the key and what it takes. */
export function setupValueOf(field: ChannelSetupFieldView, text: string): SetupValue {
  if (text === '') return null;
  switch (field.kind) {
    case 'number': {
      const value = Number(text);
      if (!Number.isFinite(value)) throw new CliError(`channels add: ${field.key} takes a number, got "${text}"`);
      return value;
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return text === 'true';
      throw new CliError(`channels add: ${field.key} takes true or false, got "${text}"`);
    case 'select': {
      const choices = (field.options ?? []).map((option) => option.value);
      if (!choices.includes(text))
        throw new CliError(`channels add: ${field.key} takes one of ${choices.join(', ')}, got "${text}"`);
      return text;
    }
    default:
      return text;
  }
}

/** The wizard as text: what to do first, then each field with its key and whether it is needed. */
export function describeSetup(setup: ChannelSetupDescription): string {
  const lines = [`${setup.name} (${setup.channel})${setup.configured ? ': set up' : ''}`];
  if (setup.steps.length > 0) lines.push('', 'First:', ...setup.steps.map((step, i) => `  ${i + 1}. ${step}`));
  lines.push('', 'Fields (--set key=value; a secret with --secret-stdin key):');
  for (const field of setup.fields) {
    const state =
      field.kind === 'secret'
        ? field.stored
          ? ' [stored]'
          : ''
        : field.value !== undefined
          ? ` [now: ${String(field.value)}]`
          : field.default !== undefined
            ? ` [default: ${String(field.default)}]`
            : '';
    const needs = field.required ? ' (required)' : '';
    const when = field.when ? ` (when ${field.when.key} is ${String(field.when.equals)})` : '';
    const choices = field.options ? ` one of: ${field.options.map((option) => option.value).join(', ')}` : '';
    lines.push(`  ${field.key}  ${field.kind}${needs}${when}${state}  ${field.label}${choices}`);
  }
  return lines.join('\n');
}

/**
 * `hearth channels list|status|add|remove|restart|token|pairing list|approve|reject`: the channels the
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

  connectionOptions(
    channels
      .command('add <channel>')
      .description(
        "set a channel up (the app's wizard, from the command line): `hearth channels add telegram --secret-stdin token < token.txt`",
      )
      .option(
        '--set <key=value>',
        'a setting of the wizard (repeatable)',
        (item: string, all: string[]) => [...all, item],
        [],
      )
      .option('--secret-stdin <key>', 'the secret field whose value is read from stdin (never argv: shell history)')
      .option('--show', 'print the wizard: steps and fields, then stop')
      .option('--no-test', 'do not wait for the channel to connect'),
  ).action(
    async (
      channel: string,
      options: ConnectionOptions & { set: string[]; secretStdin?: string; show?: boolean; test: boolean },
    ) => {
      await withLocalGateway(context, options, async (client) => {
        const setup = await client.request('channels.setup.describe', { channel });
        if (options.show) return context.stdout(`${describeSetup(setup)}\n`);
        const field = (key: string) => {
          const found = setup.fields.find((candidate) => candidate.key === key);
          if (!found)
            throw new CliError(
              `channels add: ${channel} has no setting "${key}" (settings: ${setup.fields.map((f) => f.key).join(', ')})`,
            );
          return found;
        };
        const values: Record<string, SetupValue> = {};
        for (const item of options.set) {
          const equals = item.indexOf('=');
          if (equals <= 0) throw new CliError(`channels add: --set takes key=value, got "${item}"`);
          const key = item.slice(0, equals);
          const target = field(key);
          if (target.kind === 'secret')
            throw new CliError(`channels add: ${key} is a secret; pass it on stdin with --secret-stdin ${key}`);
          values[key] = setupValueOf(target, item.slice(equals + 1));
        }
        if (options.secretStdin) {
          const target = field(options.secretStdin);
          if (target.kind !== 'secret') throw new CliError(`channels add: ${target.key} is not a secret; use --set`);
          const secret = (await context.readStdin()).trim();
          if (!secret) throw new CliError(`channels add: no value on stdin for ${target.key}`);
          values[target.key] = secret;
        }
        const result = await client.request(
          'channels.setup.apply',
          { channel, values, test: options.test, timeoutMs: 60_000 },
          { timeoutMs: 70_000 },
        );
        context.stdout(
          `${setup.configured ? 'updated' : 'added'} ${channel}${result.secretsStored.length > 0 ? ` (secrets stored: ${result.secretsStored.join(', ')})` : ''}\n`,
        );
        if (result.test && !result.test.ok)
          throw new CliError(`channels add: ${channel} did not connect: ${result.test.error ?? result.test.state}`);
        context.stdout(`${describeChannel(result.channel)}\n`);
      });
    },
  );

  connectionOptions(
    channels
      .command('remove <channel>')
      .description('stop a channel and remove its block from hearth.json')
      .option('--forget-secrets', 'also delete its tokens from the secret store'),
  ).action(async (channel: string, options: ConnectionOptions & { forgetSecrets?: boolean }) => {
    const secrets = await withLocalGateway(context, options, async (client) => {
      const setup = await client.request('channels.setup.describe', { channel });
      if (!setup.configured) throw new CliError(`channels remove: ${channel} is not set up (nothing in hearth.json)`);
      await client.request('config.patch', { patch: { channels: { [channel]: null } } });
      return setup.fields.flatMap((f) => (f.kind === 'secret' && f.stored && f.secretAccount ? [f.secretAccount] : []));
    });
    context.stdout(`removed channels.${channel} from hearth.json; the channel stopped\n`);
    if (options.forgetSecrets && secrets.length > 0) {
      const { store } = await openSecretStore({ paths: context.paths(), log: silentLogger, env: context.env });
      for (const account of secrets) await store.delete(account);
      context.stdout(`deleted from the ${store.backend} secret store: ${secrets.join(', ')}\n`);
    } else if (secrets.length > 0) {
      context.stdout(`its secrets stay in the secret store (${secrets.join(', ')}); --forget-secrets deletes them\n`);
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
