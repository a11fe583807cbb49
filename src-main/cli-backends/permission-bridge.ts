import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { z } from 'zod';

/** One permission prompt of the CLI, as Hearth's approvals see it. */
export interface CliPermissionRequest {
  toolName: string;
  input: Record<string, unknown>;
  toolUseId?: string;
}

export type CliPermissionAnswer = { allow: true } | { allow: false; message: string };

export interface PermissionBridge {
  /** The `--mcp-config` JSON naming this server (loopback URL and its one-turn bearer token). */
  mcpConfig: string;
  /** The `--permission-prompt-tool` name: `mcp__<server>__<tool>`. */
  tool: string;
  close(): Promise<void>;
}

const serverName = 'hearth';
const toolName = 'approve';

/**
 * A loopback MCP server for one CLI turn with one tool, the CLI's permission prompt
 * (Claude Code's `--permission-prompt-tool`): each call asks Hearth's approvals and answers
 * `{"behavior":"allow","updatedInput":…}` or `{"behavior":"deny","message":…}`. A random bearer
 * token, valid for this turn only, keeps other local processes from asking in the CLI's name.
 */
export async function startPermissionBridge(ask: (request: CliPermissionRequest) => Promise<CliPermissionAnswer>) {
  // The MCP SDK (with ajv) loads with the first CLI-engine turn, not with the host (issue 23).
  const [{ McpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  const token = randomBytes(24).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const authorized = (request: IncomingMessage) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!authorized(request)) {
      response.writeHead(401, { 'content-type': 'text/plain' }).end('this permission bridge needs its turn token');
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405, { 'content-type': 'text/plain' }).end('stateless: use POST');
      return;
    }
    const server = new McpServer({ name: 'hearth-permissions', version: '1.0.0' });
    server.registerTool(
      toolName,
      {
        description: "Asks the Hearth user whether the CLI may use a tool (Hearth's approvals).",
        inputSchema: {
          tool_name: z.string(),
          input: z.record(z.string(), z.unknown()),
          tool_use_id: z.string().optional(),
        },
      },
      async (args: { tool_name: string; input: Record<string, unknown>; tool_use_id?: string }) => {
        const answer = await ask({
          toolName: args.tool_name,
          input: args.input,
          ...(args.tool_use_id ? { toolUseId: args.tool_use_id } : {}),
        });
        const verdict = answer.allow
          ? { behavior: 'allow', updatedInput: args.input }
          : { behavior: 'deny', message: answer.message };
        return { content: [{ type: 'text' as const, text: JSON.stringify(verdict) }] };
      },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as { port: number };
  const bridge: PermissionBridge = {
    mcpConfig: JSON.stringify({
      mcpServers: {
        [serverName]: {
          type: 'http',
          url: `http://127.0.0.1:${port}/mcp`,
          headers: { Authorization: `Bearer ${token}` },
        },
      },
    }),
    tool: `mcp__${serverName}__${toolName}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  return bridge;
}
