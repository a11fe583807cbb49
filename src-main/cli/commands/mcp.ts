import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { HEARTH_VERSION } from '../../host/version.js';
import { isScope, type Scope } from '../../protocol/index.js';
import { type CliContext, CliError } from '../cli-context.js';
import { connectToGateway, localGatewayTarget } from '../gateway-connection.js';

export interface McpCommandDeps {
  stdin: Readable;
  stdout: Writable;
}

/** What `hearth mcp serve` asks the gateway for by default: read, chat, and answer approvals. */
export const defaultMcpScopes: Scope[] = ['operator.read', 'operator.write', 'operator.approvals'];

export function parseScopes(list: string): Scope[] {
  const scopes = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new CliError(
      `--scopes: ${unknown.length > 0 ? `unknown scope ${unknown.join(', ')}` : 'empty list'} (e.g. operator.read,operator.write)`,
    );
  }
  return scopes as Scope[];
}

/** `hearth mcp serve`: Hearth as an MCP server over stdio, a client of the running gateway. */
export function registerMcpCommands(
  program: Command,
  context: CliContext,
  deps: McpCommandDeps = { stdin: process.stdin, stdout: process.stdout },
): void {
  const mcp = program.command('mcp').description('Model Context Protocol');
  mcp
    .command('serve')
    .description('Serve Hearth’s conversations, memory and permission requests as MCP tools over stdio')
    .option('--url <url>', 'gateway URL (default: the local gateway)')
    .option('--token <token>', 'gateway or device token (default: the local gateway token)')
    .option(
      '--scopes <list>',
      'scopes to ask for, comma-separated; tools outside them are not offered',
      defaultMcpScopes.join(','),
    )
    .action(async (options: { url?: string; token?: string; scopes: string }) => {
      const scopes = parseScopes(options.scopes);
      const [{ StdioServerTransport }, { connectionFromClient, createHearthMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../mcp-server/index.js'),
      ]);
      const target = await localGatewayTarget(context.paths(), {
        url: options.url,
        token: options.token,
        env: context.env,
      });
      const client = await connectToGateway(target, { scopes });
      const hello = await client.waitForConnected();
      const server = createHearthMcpServer(connectionFromClient(client, hello.auth.scopes), {
        version: HEARTH_VERSION,
      });
      const transport = new StdioServerTransport(deps.stdin, deps.stdout);
      // stdout carries the protocol only: whatever we have to say goes to stderr.
      context.stderr(`hearth mcp: serving ${target.url} with ${(hello.auth.scopes).join(', ')}\n`);
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
        deps.stdin.once('end', () => resolve());
        client.onDidChangeState((state) => {
          if (state.status === 'disconnected' || state.status === 'auth-failed') resolve();
        });
      });
      await server.connect(transport);
      await closed;
      await server.close().catch(() => {});
      client.dispose();
      // The gateway may have gone first: stop reading stdin so the process can end.
      deps.stdin.destroy();
    });
}
