import type { Command } from 'commander';
import { GatewayError, type Scope } from '../protocol/index.js';
import { type CliContext, CliError } from './cli-context.js';
import { connectToGateway, localGatewayTarget } from './gateway-connection.js';

/** The options every command that talks to a running gateway takes. */
export interface GatewayOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

export function withGatewayOptions(command: Command): Command {
  return command
    .option('--url <url>', 'gateway URL (default: the local gateway)')
    .option('--token <token>', 'gateway token')
    .option('--json', 'print JSON');
}

/**
 * Connects to the gateway the options name (the local one by default) with only the scopes the
 * command needs, runs `run`, and always closes the connection; a gateway refusal becomes a
 * CliError so the person sees its message, not a stack.
 */
export async function withGatewayClient<T>(
  context: CliContext,
  options: GatewayOptions,
  /** Undefined: the operator scopes a local CLI connection gets by default. */
  scopes: Scope[] | undefined,
  run: (client: Awaited<ReturnType<typeof connectToGateway>>) => Promise<T>,
): Promise<T> {
  const target = await localGatewayTarget(context.paths(), {
    url: options.url,
    token: options.token,
    env: context.env,
  });
  const client = await connectToGateway(target, scopes ? { scopes } : {});
  try {
    return await run(client);
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message);
    throw error;
  } finally {
    client.dispose();
  }
}
