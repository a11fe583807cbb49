import type { Command } from 'commander';
import type { GatewayClient } from '../../protocol/client/index.js';
import type { PairedDeviceView, PairingRequestView, SetupCodeResult } from '../../protocol/methods/devices.js';
import { type CliContext, CliError } from '../cli-context.js';
import { withGatewayClient } from '../gateway-command.js';

/** Talks to the local gateway (or the one `--url` names) with the CLI's default scopes. */
function withLocalGateway<T>(
  context: CliContext,
  options: { url?: string; token?: string },
  run: (client: GatewayClient) => Promise<T>,
): Promise<T> {
  return withGatewayClient(context, options, undefined, run);
}

function describeRequest(request: PairingRequestView): string {
  const who = request.displayName ?? request.clientId;
  const known = request.isRepair ? ' (known device, new token?)' : '';
  return `${request.requestId}  ${who} on ${request.platform ?? 'unknown platform'} from ${request.remoteAddress ?? '?'}${known}\n    wants ${request.role}: ${request.scopes.join(', ') || '(no scopes)'}`;
}

/**
 * The device a person means: its full id (what `list`, `show` and `approve` print) or an
 * unambiguous prefix of it. Ids are resolved here, against the gateway's own list, so what
 * one command prints is always what the next one accepts.
 */
export async function resolveDeviceId(client: GatewayClient, given: string): Promise<PairedDeviceView> {
  const wanted = given.trim().toLowerCase();
  if (wanted.length === 0) throw new CliError('a device id is required (see `hearth devices list`)');
  const { paired } = await client.request('device.pair.list', {});
  const exact = paired.find((d) => d.deviceId.toLowerCase() === wanted);
  if (exact) return exact;
  const matches = paired.filter((d) => d.deviceId.toLowerCase().startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new CliError(
      `device id ${given} is ambiguous: it starts ${matches.length} paired devices (${matches.map((d) => d.deviceId).join(', ')}); give more of it`,
    );
  }
  throw new CliError(`unknown device: ${given} (see \`hearth devices list\` for paired devices)`);
}

function describeDevice(device: PairedDeviceView): string {
  const seen = device.lastSeenMs ? new Date(device.lastSeenMs).toISOString() : 'never';
  return `${device.deviceId}  ${device.displayName ?? device.clientId} (${device.platform ?? '?'}) ${device.online ? 'online' : 'offline'}, last seen ${seen}\n    ${device.roles.map((r) => `${r.role}: ${r.scopes.join(', ')}`).join('; ') || 'no live tokens'}`;
}

function connectionOptions(command: Command): Command {
  return command
    .option('--url <url>', 'gateway URL (default: the local gateway)')
    .option('--token <token>', 'gateway token (default: the stored one)');
}

export function registerDevicesCommands(program: Command, context: CliContext): void {
  const devices = program.command('devices').description('paired devices: list, approve, reject, revoke');

  connectionOptions(
    devices.command('list').description('pending pairing requests and paired devices').option('--json', 'print JSON'),
  ).action(async (options: { url?: string; token?: string; json?: boolean }) => {
    const result = await withLocalGateway(context, options, (client) => client.request('device.pair.list', {}));
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    context.stdout(
      `Pending (${result.pending.length}):\n${result.pending.map((r) => `  ${describeRequest(r)}`).join('\n') || '  none'}\n`,
    );
    context.stdout(
      `Paired (${result.paired.length}):\n${result.paired.map((d) => `  ${describeDevice(d)}`).join('\n') || '  none'}\n`,
    );
  });

  connectionOptions(devices.command('approve <requestId>').description('approve a pairing request')).action(
    async (requestId: string, options: { url?: string; token?: string }) => {
      const result = await withLocalGateway(context, options, (client) =>
        client.request('device.pair.approve', { requestId }),
      );
      context.stdout(
        `approved ${result.device.displayName ?? result.device.clientId} (${result.device.deviceId}) with ${result.device.scopes.join(', ')}\n`,
      );
    },
  );

  connectionOptions(devices.command('reject <requestId>').description('reject a pairing request')).action(
    async (requestId: string, options: { url?: string; token?: string }) => {
      const result = await withLocalGateway(context, options, (client) =>
        client.request('device.pair.reject', { requestId }),
      );
      context.stdout(`rejected device ${result.deviceId}\n`);
    },
  );

  connectionOptions(
    devices
      .command('revoke <deviceId>')
      .description("revoke a device's token and close its connections")
      .option('--role <role>', 'operator or node', 'operator'),
  ).action(async (given: string, options: { url?: string; token?: string; role: 'operator' | 'node' }) => {
    const result = await withLocalGateway(context, options, async (client) => {
      const { deviceId } = await resolveDeviceId(client, given);
      return client.request('device.token.revoke', { deviceId, role: options.role });
    });
    context.stdout(
      `revoked ${result.role} token of ${result.deviceId}; closed ${result.closedConnections} connection(s)\n`,
    );
  });

  connectionOptions(devices.command('remove <deviceId>').description('forget a paired device')).action(
    async (given: string, options: { url?: string; token?: string }) => {
      const result = await withLocalGateway(context, options, async (client) => {
        const { deviceId } = await resolveDeviceId(client, given);
        return client.request('device.pair.remove', { deviceId });
      });
      context.stdout(`removed ${result.deviceId}\n`);
    },
  );

  connectionOptions(
    devices
      .command('show <deviceId>')
      .description('one paired device: roles, scopes, when it was paired and last seen')
      .option('--json', 'print JSON'),
  ).action(async (given: string, options: { url?: string; token?: string; json?: boolean }) => {
    const device = await withLocalGateway(context, options, (client) => resolveDeviceId(client, given));
    if (options.json) return context.stdout(`${JSON.stringify(device, null, 2)}\n`);
    context.stdout(
      `${describeDevice(device)}\n    paired ${new Date(device.pairedAtMs).toISOString()} via ${device.approvedVia}\n`,
    );
  });

  const pair = program.command('pair').description('pair a phone or another machine');
  connectionOptions(
    pair
      .command('qr')
      .description('make a setup code (QR + link) for a phone; single use, 10 minutes')
      .option('--json', 'print JSON'),
  ).action(async (options: { url?: string; token?: string; json?: boolean }) => {
    const result: SetupCodeResult = await withLocalGateway(context, options, (client) =>
      client.request('device.pair.setup', {}),
    );
    if (options.json) {
      const { qrSvg: _svg, qrText: _text, ...rest } = result;
      return context.stdout(`${JSON.stringify(rest, null, 2)}\n`);
    }
    context.stdout(`${result.qrText}\n`);
    context.stdout(`Scan with your phone, or open: ${result.link}\n`);
    context.stdout(`Gateway: ${result.urls.join(', ')}\nCertificate pin: sha256:${result.tlsFingerprint}\n`);
    context.stdout(
      `Expires: ${new Date(result.expiresAt).toLocaleTimeString()} (single use). Approve the device when it asks.\n`,
    );
  });
}
