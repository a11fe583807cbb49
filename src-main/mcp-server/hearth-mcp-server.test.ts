import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMcpScopes } from '../cli/commands/mcp.js';
import { connectToGateway } from '../cli/gateway-connection.js';
import type { GatewayClient } from '../protocol/client/index.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { connectionFromClient, createHearthMcpServer } from './index.js';

// Hearth as an MCP server, driven by the official SDK's client: in process over linked
// transports against a real gateway socket, and as the real `hearth mcp serve` over stdio.

const hearthBin = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));
let product: ProductFixture;
const opened: { close(): Promise<void> | void }[] = [];

beforeAll(async () => {
  product = await startProductFixture({
    before: async (home) => {
      const memoryDir = join(home, 'workspace', 'memory');
      await mkdir(memoryDir, { recursive: true });
      await writeFile(
        join(memoryDir, '2026-11-28.md'),
        '# Notes\n\n- The boat is called Saudade and is moored at pier 9.\n',
      );
    },
  });
}, 60_000);
afterAll(async () => {
  for (const item of opened.reverse()) await item.close();
  await product?.close();
});

/** An SDK client talking to a Hearth MCP server whose gateway connection holds `scopes`. */
async function mcpClient(scopes: string[]): Promise<{ client: Client; gateway: GatewayClient }> {
  const gateway = await connectToGateway({ url: product.host.wsUrl, token: product.host.token }, { scopes });
  const hello = await gateway.waitForConnected();
  const server = createHearthMcpServer(connectionFromClient(gateway, hello.auth.scopes), { version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'hearth-test', version: '1.0.0' });
  await client.connect(clientSide);
  opened.push({
    async close() {
      await client.close();
      await server.close();
      gateway.dispose();
    },
  });
  return { client, gateway };
}

function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('hearth MCP server', () => {
  it('sends a message as a turn, streaming the answer as progress, and reads the conversation back', async () => {
    const { client } = await mcpClient(defaultMcpScopes);
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'conversation_get',
      'conversations_list',
      'events_poll',
      'events_wait',
      'memory_search',
      'messages_read',
      'messages_send',
      'permissions_list_open',
      'permissions_respond',
    ]);

    product.llm.script({ type: 'text', text: 'The ferry leaves at nine from Cais do Sodré.', chunkSize: 6 });
    const progress: string[] = [];
    const sent = await client.callTool(
      { name: 'messages_send', arguments: { sessionKey: 'agent:main:ferry', message: 'when is the ferry?' } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? '') },
    );
    expect(sent.isError).toBeFalsy();
    expect(textOf(sent)).toBe('The ferry leaves at nine from Cais do Sodré.');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.join('')).toBe('The ferry leaves at nine from Cais do Sodré.');

    const listed = JSON.parse(textOf(await client.callTool({ name: 'conversations_list', arguments: {} })));
    expect(listed.conversations.map((c: { sessionKey: string }) => c.sessionKey)).toContain('agent:main:ferry');
    const read = JSON.parse(
      textOf(await client.callTool({ name: 'messages_read', arguments: { sessionKey: 'agent:main:ferry' } })),
    );
    expect(read.messages.map((m: { role: string; text: string }) => `${m.role}: ${m.text}`)).toEqual([
      'user: when is the ferry?',
      'assistant: The ferry leaves at nine from Cais do Sodré.',
    ]);
    const got = JSON.parse(
      textOf(await client.callTool({ name: 'conversation_get', arguments: { sessionKey: 'agent:main:ferry' } })),
    );
    expect(got.session).toMatchObject({ key: 'agent:main:ferry', agentId: 'main' });
  });

  it('answers a bad session key as a tool error that names it', async () => {
    const { client } = await mcpClient(defaultMcpScopes);
    const result = await client.callTool({ name: 'messages_read', arguments: { sessionKey: 'agent:Bad Agent:x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('invalid agent id');
  });

  it('searches memory', async () => {
    const { client, gateway } = await mcpClient(defaultMcpScopes);
    // The note is indexed in the background after start: wait until the gateway finds it (bounded).
    for (let attempt = 0; attempt < 100; attempt++) {
      const direct = await gateway.request('memory.search', { query: 'boat name' });
      if (JSON.stringify(direct).includes('Saudade')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const found = JSON.parse(
      textOf(await client.callTool({ name: 'memory_search', arguments: { query: 'boat name' } })),
    );
    const note = (found.results as { path: string; snippet: string }[]).find(
      (hit) => hit.path === 'memory/2026-11-28.md',
    );
    expect(note?.snippet).toContain('Saudade');
  });

  it('lists the permission a turn waits on and answers it, and the turn then finishes', async () => {
    const { client } = await mcpClient(defaultMcpScopes);
    await writeFile(join(product.home, 'workspace', 'tide.txt'), 'high at 14:10');
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'cat tide.txt' } }] },
      { type: 'text', text: 'High tide is at 14:10.' },
    ]);
    const mark = product.socket.frames.length;
    const turn = client.callTool({
      name: 'messages_send',
      arguments: { sessionKey: 'agent:main:tides', message: 'when is high tide?' },
    });
    await product.socket.next(
      (f) => product.socket.frames.indexOf(f) >= mark && f.event === 'exec.approval.requested',
      20_000,
    );
    const open = JSON.parse(textOf(await client.callTool({ name: 'permissions_list_open', arguments: {} })));
    expect(open.open).toHaveLength(1);
    expect(open.open[0]).toMatchObject({ command: 'cat tide.txt', sessionKey: 'agent:main:tides' });
    const answered = await client.callTool({
      name: 'permissions_respond',
      arguments: { id: open.open[0].id, decision: 'allow-once' },
    });
    expect(answered.isError).toBeFalsy();
    expect(textOf(await turn)).toBe('High tide is at 14:10.');
  });

  it('tells what happens elsewhere: events_wait wakes on a message another client sent, events_poll reads on', async () => {
    const { client } = await mcpClient(defaultMcpScopes);
    const start = JSON.parse(textOf(await client.callTool({ name: 'events_poll', arguments: {} }))) as {
      cursor: number;
    };
    // Waiting from a cursor: what lands before the wait starts is still returned, so there is no race.
    const waiting = client.callTool({ name: 'events_wait', arguments: { after: start.cursor, timeoutMs: 60_000 } });
    await product.turn('elsewhere-1', 'ping from elsewhere', 'agent:main:elsewhere');
    const first = JSON.parse(textOf(await waiting)) as { events: { event: Record<string, string> }[]; cursor: number };
    expect(first.events.length).toBeGreaterThan(0);
    const rest = JSON.parse(textOf(await client.callTool({ name: 'events_poll', arguments: { after: 0 } }))) as {
      events: { seq: number; event: Record<string, string> }[];
      cursor: number;
    };
    const messages = rest.events.filter(
      (e) => e.event.type === 'message' && e.event.sessionKey === 'agent:main:elsewhere',
    );
    expect(messages.map((e) => `${e.event.role}: ${e.event.text}`)).toContain('user: ping from elsewhere');
    // Read by cursor: nothing twice.
    const after = JSON.parse(
      textOf(await client.callTool({ name: 'events_poll', arguments: { after: rest.cursor } })),
    ) as { events: unknown[] };
    expect(after.events).toEqual([]);
  });

  it('offers only the tools the scopes cover', async () => {
    const { client } = await mcpClient(['operator.read']);
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'conversation_get',
      'conversations_list',
      'events_poll',
      'events_wait',
      'memory_search',
      'messages_read',
    ]);
    const refused = await client.callTool({ name: 'messages_send', arguments: { message: 'hi' } });
    expect(refused.isError).toBe(true);
  });

  it('runs as `hearth mcp serve` over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [hearthBin, 'mcp', 'serve', '--url', product.host.wsUrl, '--scopes', 'operator.write'],
      env: { ...(process.env as Record<string, string>), HEARTH_HOME: product.home },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'hearth-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    opened.push(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('messages_send');
    expect(names).not.toContain('permissions_respond');
    const sent = await client.callTool({ name: 'messages_send', arguments: { message: 'over stdio' } });
    expect(textOf(sent)).toBe('echo: over stdio');
  }, 120_000);
});
