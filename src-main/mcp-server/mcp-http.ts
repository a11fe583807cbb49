import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import type { HttpRoute } from '../gateway/http-route-registry.js';
import { BodyError, httpCallerFor, readJsonBody } from '../openai-api/index.js';
import { connectionFromCore } from './hearth-connection.js';
import { createHearthMcpServer } from './hearth-mcp-server.js';

export const MCP_PATH = '/mcp';

export interface McpHttpDeps {
  core: Pick<GatewayCore, 'authenticateBearer' | 'callAs' | 'subscribeAs'>;
  /** Read per request: `gateway.mcpHttp.enabled` applies without a restart. */
  enabled(): boolean;
  version: string;
  maxBodyBytes?: number;
}

/** A JSON-RPC error answer for a request refused before MCP saw it. */
function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32_000, message }, id: null }));
}

/**
 * MCP over Streamable HTTP at `/mcp`, stateless: each POST is authenticated by its bearer token
 * (the gateway's rules, auth/bearer-token.ts) and served by a fresh server whose tools are those
 * the token's scopes cover; progress of `messages_send` streams back as SSE on the same response.
 */
export function createMcpHttpRoute(deps: McpHttpDeps): HttpRoute {
  const maxBodyBytes = deps.maxBodyBytes ?? 4 * 1024 * 1024;
  return {
    paths: [MCP_PATH],
    async handle(request: IncomingMessage, response: ServerResponse, peer) {
      if (!deps.enabled()) {
        return refuse(response, 404, 'MCP over HTTP is off: set gateway.mcpHttp.enabled to true in hearth.json');
      }
      if (request.method !== 'POST') {
        response.setHeader('allow', 'POST');
        return refuse(
          response,
          405,
          `${request.method} is not allowed on ${MCP_PATH}: this server is stateless, use POST`,
        );
      }
      const auth = await httpCallerFor(request, peer, deps.core, { scope: 'operator.read', clientId: 'mcp-http' });
      if (!auth.ok) {
        if (auth.status === 401) response.setHeader('www-authenticate', 'Bearer');
        return refuse(response, auth.status, auth.message);
      }
      let body: unknown;
      try {
        body = await readJsonBody(request, maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyError) return refuse(response, error.status, error.message);
        throw error;
      }
      const server = createHearthMcpServer(connectionFromCore(deps.core, auth.caller), { version: deps.version });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
    },
  };
}
