import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { connectRaw, createTestDeviceKey } from '../testing/raw-gateway-socket.js';

// MCP over Streamable HTTP at /mcp on the gateway's port, driven by the official SDK's client:
// off by default, bearer token with scopes, and a turn's answer streamed back as progress.

let product: ProductFixture;
const clients: Client[] = [];

beforeAll(async () => {
  product = await startProductFixture();
}, 60_000);
afterAll(async () => {
  for (const client of clients) await client.close();
  await product?.close();
});

async function connect(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${product.host.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'hearth-http-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function textOf(result: unknown): string {
  return (result as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('MCP over HTTP at /mcp', () => {
  it('is off until gateway.mcpHttp.enabled is set', async () => {
    const off = await fetch(`${product.host.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${product.host.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(off.status).toBe(404);
    expect(await off.text()).toContain('gateway.mcpHttp.enabled');
    const patched = await product.socket.request('config.patch', {
      patch: { gateway: { mcpHttp: { enabled: true } } },
    });
    expect(patched.ok).toBe(true);
  });

  it('runs a turn with the gateway token, streaming the answer as progress', async () => {
    const client = await connect(product.host.token);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('messages_send');
    product.llm.script({ type: 'text', text: 'Dinner is at eight on Friday.', chunkSize: 4 });
    const progress: string[] = [];
    const sent = await client.callTool(
      { name: 'messages_send', arguments: { sessionKey: 'agent:main:dinner', message: 'when is dinner?' } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? '') },
    );
    expect(textOf(sent)).toBe('Dinner is at eight on Friday.');
    expect(progress.join('')).toBe('Dinner is at eight on Friday.');
  });

  it('refuses a missing or wrong token, and offers a read-only device token only the read tools', async () => {
    const missing = await fetch(`${product.host.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(missing.status).toBe(401);
    expect(await missing.text()).toContain('missing bearer token');
    await expect(connect('wrong-token')).rejects.toThrow(/invalid bearer token/);

    const { socket, hello } = await connectRaw(product.host.wsUrl, {
      token: product.host.token,
      device: createTestDeviceKey(),
      scopes: ['operator.read'],
    });
    socket.close();
    const deviceToken = (hello.payload as { auth: { deviceToken: string } }).auth.deviceToken;
    const reader = await connect(deviceToken);
    const names = (await reader.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'conversation_get',
      'conversations_list',
      'events_poll',
      'events_wait',
      'memory_search',
      'messages_read',
    ]);
    const read = JSON.parse(
      textOf(await reader.callTool({ name: 'messages_read', arguments: { sessionKey: 'agent:main:dinner' } })),
    );
    expect(read.messages.at(-1).text).toBe('Dinner is at eight on Friday.');
  });
});
