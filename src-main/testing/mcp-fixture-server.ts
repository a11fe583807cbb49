import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/**
 * Test support (never shipped): a small real MCP server built with the official SDK. Run as a
 * child (`node --import tsx mcp-fixture-server.ts`) it speaks stdio; `startFixtureMcpHttpServer`
 * serves the same tools over Streamable HTTP on loopback.
 *
 * Tools: `echo` (read-only), `add_note` (writes, not destructive), `delete_notes` (destructive),
 * `crash` (the process exits mid-call), `hang` (never answers), `count` (reports progress; `hold` waits for `release`), `big` (a long text), `picture`
 * (an image), `env_value` (reads an environment variable), `grow` (adds a tool: list_changed).
 */
export function createFixtureMcpServer(options: { exit?: (code: number) => void } = {}): McpServer {
  const server = new McpServer({ name: 'hearth-fixture', version: '1.0.0' });
  const notes: string[] = [];
  const held: (() => void)[] = [];
  server.registerTool(
    'echo',
    {
      description: 'Echo the text back',
      inputSchema: { text: z.string().describe('what to echo') },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool(
    'add_note',
    {
      description: 'Save a note',
      inputSchema: { note: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async ({ note }) => {
      notes.push(note);
      return { content: [{ type: 'text', text: `saved note ${notes.length}: ${note}` }] };
    },
  );
  server.registerTool(
    'delete_notes',
    { description: 'Delete every note', annotations: { destructiveHint: true } },
    async () => {
      const count = notes.splice(0).length;
      return { content: [{ type: 'text', text: `deleted ${count} notes` }] };
    },
  );
  server.registerTool(
    'release',
    { description: 'Let held calls answer', annotations: { readOnlyHint: true } },
    async () => {
      const count = held.splice(0).map((resolve) => resolve()).length;
      return { content: [{ type: 'text', text: `released ${count}` }] };
    },
  );
  server.registerTool(
    'crash',
    { description: 'Exit the server process', annotations: { readOnlyHint: true } },
    async () => {
      process.stderr.write('fixture: crashing on purpose\n');
      (options.exit ?? process.exit)(3);
      return new Promise<never>(() => {});
    },
  );
  server.registerTool(
    'hang',
    { description: 'Never answer', annotations: { readOnlyHint: true } },
    () => new Promise<never>(() => {}),
  );
  server.registerTool(
    'big',
    {
      description: 'A long text',
      inputSchema: { chars: z.number().int().min(1) },
      annotations: { readOnlyHint: true },
    },
    async ({ chars }) => ({ content: [{ type: 'text', text: 'x'.repeat(chars) }] }),
  );
  server.registerTool(
    'count',
    {
      description: 'Count to n, reporting progress',
      inputSchema: { n: z.number().int().min(1).max(10), hold: z.boolean().optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ n, hold }, extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= n; step++)
        if (progressToken !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: n, message: `step ${step}` },
          });
      // With `hold`, the answer waits for `release`: a test sees every progress note arrive first.
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      return { content: [{ type: 'text', text: `counted to ${n}` }] };
    },
  );
  server.registerTool('picture', { description: 'A tiny image', annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'image', data: Buffer.from('PNGDATA!').toString('base64'), mimeType: 'image/png' }],
  }));
  server.registerTool(
    'env_value',
    {
      description: 'Read an environment variable',
      inputSchema: { name: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ name }) => ({ content: [{ type: 'text', text: process.env[name] ?? '(unset)' }] }),
  );
  server.registerTool(
    'grow',
    { description: 'Add the tool "extra"', annotations: { readOnlyHint: true } },
    async () => {
      server.registerTool('extra', { description: 'Added later', annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: 'text', text: 'extra ran' }],
      }));
      return { content: [{ type: 'text', text: 'added extra' }] };
    },
  );
  return server;
}

export interface FixtureMcpHttpServer {
  url: string;
  /** Authorization header values of every request seen. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** The fixture over Streamable HTTP (stateless: one server per request) on 127.0.0.1, port 0. */
export async function startFixtureMcpHttpServer(): Promise<FixtureMcpHttpServer> {
  const authorizations: (string | undefined)[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    authorizations.push(request.headers.authorization);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
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
    handle(request, response).catch((error) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** Where this file is, for spawning it as a stdio server. */
export const fixtureMcpServerPath = fileURLToPath(import.meta.url);

/** `command` + `args` of an `mcp.servers` entry that runs the fixture over stdio. */
export function fixtureMcpServerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', fixtureMcpServerPath] };
}

if (process.argv[1] === fixtureMcpServerPath) {
  await createFixtureMcpServer().connect(new StdioServerTransport());
}
