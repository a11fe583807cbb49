import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FakeOAuthServer } from './fake-oauth-server.js';
import { createFixtureMcpServer } from './mcp-fixture-server.js';

/**
 * Test support (never shipped): the SDK-built fixture MCP server over Streamable HTTP, as a
 * protected resource (RFC 9728). Every request needs a bearer token the fake authorization server
 * issued and has not expired; otherwise 401 with `WWW-Authenticate: Bearer resource_metadata=…`,
 * pointing at its protected resource metadata, which names the authorization server.
 */
export interface ProtectedMcpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp. */
  url: string;
  /** Requests answered 401 (no token, or an expired or unknown one). */
  readonly unauthorized: number;
  close(): Promise<void>;
}

export async function startProtectedMcpServer(oauth: FakeOAuthServer): Promise<ProtectedMcpServer> {
  let base = '';
  let unauthorized = 0;
  const metadataPath = '/.well-known/oauth-protected-resource/mcp';
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', base).pathname;
    if (path === metadataPath || path === '/.well-known/oauth-protected-resource') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          resource: `${base}/mcp`,
          authorization_servers: [oauth.issuer],
          bearer_methods_supported: ['header'],
        }),
      );
      return;
    }
    if (path !== '/mcp') {
      response.writeHead(404);
      response.end();
      return;
    }
    const header = request.headers.authorization ?? '';
    const bearer = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
    if (!oauth.verify(bearer)) {
      unauthorized += 1;
      request.resume();
      response.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}${metadataPath}"`,
      });
      response.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    // Stateless: one MCP server per request, as the fixture's HTTP mode does.
    const server = createFixtureMcpServer({ exit: () => response.socket?.destroy() });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };
  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    get unauthorized() {
      return unauthorized;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
