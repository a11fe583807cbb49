import type { GatewayClient } from '../protocol/client/index.js';
import { decodeSetupCode, SetupCodeError } from '../protocol/index.js';
import { type CliContext, CliError } from './cli-context.js';
import { connectToGateway, GatewayRefusal } from './gateway-connection.js';
import { RemoteIdentityStore } from './remote-identity.js';

export const PAIRING_SCOPES = ['operator.read', 'operator.write', 'operator.approvals'];

/**
 * Pairs this machine as a remote client of a gateway from a setup code: makes (or
 * reuses) a device key, pins the certificate from the code, asks to pair with the
 * bootstrap token, and waits for a person to approve it on the desktop.
 */
export async function pairWithSetupCode(
  context: CliContext,
  codeText: string,
  options: { url?: string; scopes?: string[]; pollMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<{ client: GatewayClient; url: string }> {
  let code: ReturnType<typeof decodeSetupCode>;
  try {
    code = decodeSetupCode(codeText, context.clock.now());
  } catch (error) {
    if (error instanceof SetupCodeError) throw new CliError(error.message);
    throw error;
  }
  const store = await RemoteIdentityStore.open(context.paths().identityDir);
  const device = await store.device();
  const scopes = options.scopes ?? PAIRING_SCOPES;
  const urls = options.url ? [options.url] : code.urls;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let announced = false;
  let lastError: unknown;
  while (context.clock.now() < code.expiresAt) {
    for (const url of urls) {
      try {
        const client = await connectToGateway(
          { url },
          { scopes, remote: { device, pin: code.tlsFingerprint, auth: { bootstrapToken: code.bootstrapToken } } },
        );
        const deviceToken = client.state.hello?.auth.deviceToken;
        if (!deviceToken) {
          client.dispose();
          throw new CliError(
            'the gateway accepted the setup code but sent no device token; make a new setup code and try again',
          );
        }
        await store.remember(url, {
          tlsFingerprint: code.tlsFingerprint,
          deviceToken,
          role: 'operator',
          scopes,
          pairedAtMs: context.clock.now(),
        });
        context.stderr(`Paired with ${url} as device ${device.id.slice(0, 12)}…\n`);
        return { client, url };
      } catch (error) {
        lastError = error;
        if (error instanceof GatewayRefusal && error.detailCode === 'PAIRING_REQUIRED') {
          if (!announced) {
            context.stderr(
              `Waiting for approval on the desktop (device ${device.id.slice(0, 12)}…). Approve it in the Devices view or with \`hearth devices approve\`.\n`,
            );
            announced = true;
          }
          break;
        }
        if (error instanceof GatewayRefusal) throw error;
      }
    }
    await sleep(options.pollMs ?? 2000);
  }
  if (lastError instanceof CliError) throw lastError;
  throw new CliError('the setup code expired before the device was approved; make a new one on the desktop');
}

/** Connects to a gateway this machine paired with earlier (pin + device token from identity/remote). */
export async function connectToPairedGateway(
  context: CliContext,
  url: string,
  scopes?: string[],
): Promise<GatewayClient | undefined> {
  const store = await RemoteIdentityStore.open(context.paths().identityDir);
  const known = await store.lookup(url);
  if (!known) return undefined;
  return connectToGateway(
    { url },
    {
      scopes: scopes ?? known.scopes,
      remote: { device: await store.device(), pin: known.tlsFingerprint, auth: { deviceToken: known.deviceToken } },
    },
  );
}
