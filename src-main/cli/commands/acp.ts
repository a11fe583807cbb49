import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { HEARTH_VERSION } from '../../host/version.js';
import type { Scope } from '../../protocol/index.js';
import type { CliContext } from '../cli-context.js';
import { connectToGateway, localGatewayTarget } from '../gateway-connection.js';
import { parseScopes } from './mcp.js';

export interface AcpCommandDeps {
  stdin: Readable;
  stdout: Writable;
}

/** What `hearth acp` asks the gateway for: read (events), chat, and answering approvals. */
export const defaultAcpScopes: Scope[] = ['operator.read', 'operator.write', 'operator.approvals'];

/** `hearth acp`: Hearth as an Agent Client Protocol agent over stdio, a client of the running gateway. */
export function registerAcpCommands(
  program: Command,
  context: CliContext,
  deps: AcpCommandDeps = { stdin: process.stdin, stdout: process.stdout },
): void {
  program
    .command('acp')
    .description('Serve a Hearth agent to an editor over the Agent Client Protocol (stdio)')
    .option('--agent <id>', 'the agent whose sessions new editor sessions are', 'main')
    .option('--url <url>', 'gateway URL (default: the local gateway)')
    .option('--token <token>', 'gateway or device token (default: the local gateway token)')
    .option('--scopes <list>', 'scopes to ask for, comma-separated', defaultAcpScopes.join(','))
    .action(async (options: { agent: string; url?: string; token?: string; scopes: string }) => {
      const scopes = parseScopes(options.scopes);
      const [acp, { createHearthAcpAgent }, { connectionFromClient }] = await Promise.all([
        import('@agentclientprotocol/sdk'),
        import('../../acp/index.js'),
        import('../../mcp-server/index.js'),
      ]);
      const target = await localGatewayTarget(context.paths(), {
        url: options.url,
        token: options.token,
        env: context.env,
      });
      const client = await connectToGateway(target, { scopes });
      const hello = await client.waitForConnected();
      const agent = createHearthAcpAgent(connectionFromClient(client, hello.auth.scopes), {
        version: HEARTH_VERSION,
        agentId: options.agent,
      });
      // stdout carries the protocol only: whatever we have to say goes to stderr.
      context.stderr(`hearth acp: agent ${options.agent} on ${target.url} with ${hello.auth.scopes.join(', ')}\n`);
      const stream = acp.ndJsonStream(
        Writable.toWeb(deps.stdout) as WritableStream<Uint8Array>,
        Readable.toWeb(deps.stdin) as ReadableStream<Uint8Array>,
      );
      const connection = agent.connect(stream);
      const gatewayGone = new Promise<void>((resolve) => {
        client.onDidChangeState((state) => {
          if (state.status === 'disconnected' || state.status === 'auth-failed') resolve();
        });
      });
      await Promise.race([connection.closed, gatewayGone]);
      connection.close();
      client.dispose();
      // The gateway may have gone first: stop reading stdin so the process can end.
      deps.stdin.destroy();
    });
}
