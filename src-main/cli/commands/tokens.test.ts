import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../testing/cli-run.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';
import { connectToGateway } from '../gateway-connection.js';

// Scoped API tokens (issue 15): minted, listed and revoked with `hearth tokens` through the CLI's
// own code path, then used as bearer tokens on the real /v1 and /mcp doors of a composed host.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { gateway: { openaiApi: { enabled: true }, mcpHttp: { enabled: true } } },
  });
}, 60_000);
afterAll(async () => {
  await product?.close();
});

const hearth = (...args: string[]) =>
  runCliCaptured([...args, '--url', product.host.wsUrl], { HEARTH_HOME: product.home });

async function mint(name: string, scopes: string): Promise<string> {
  const created = await hearth('tokens', 'create', '--name', name, '--scopes', scopes);
  expect(created.stderr).toContain('shown only now');
  expect(created.code).toBe(0);
  return created.stdout.trim();
}

const models = (token: string) =>
  fetch(`${product.host.url}/v1/models`, { headers: { authorization: `Bearer ${token}` } });

const complete = (token: string, content: string) =>
  fetch(`${product.host.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-hearth-session': 'ci' },
    body: JSON.stringify({ model: 'hearth/main', messages: [{ role: 'user', content }] }),
  });

async function mcpTools(token: string): Promise<string[]> {
  const transport = new StreamableHTTPClientTransport(new URL(`${product.host.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'api-token-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('API tokens', () => {
  it('a read-only token reads but is refused a write, on /v1 and /mcp', async () => {
    const token = await mint('dashboard', 'operator.read');
    expect(token).toMatch(/^hearth_[0-9a-f]{12}_/);

    const listed = await models(token);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain('hearth/main');

    const refused = await complete(token, 'hello');
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await refused.json())).toContain('lacks the operator.write scope (it has: operator.read)');

    const tools = await mcpTools(token);
    expect(tools).toContain('messages_read');
    expect(tools).not.toContain('messages_send');
  });

  it('a read-write token runs a turn', async () => {
    const token = await mint('ci', 'operator.read,operator.write');
    const answered = await complete(token, 'from ci');
    expect(answered.status).toBe(200);
    const body = (await answered.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]!.message.content).toBe('echo: from ci');
  });

  it('is kept hashed, outside hearth.json, and listed without its value', async () => {
    const token = await mint('hashed', 'operator.read');
    const stored = await readFile(join(product.home, 'identity', 'api-tokens.json'), 'utf8');
    expect(stored).toContain('"name": "hashed"');
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.split('_').at(-1));
    expect(await readFile(join(product.home, 'hearth.json'), 'utf8')).not.toContain(token);

    const list = await hearth('tokens', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('hashed  operator.read');
    expect(list.stdout).not.toContain(token);
  });

  it('a revoked token is refused from its next request on', async () => {
    const token = await mint('revoke-me', 'operator.read');
    expect((await models(token)).status).toBe(200);
    const id = token.split('_')[1]!;
    const revoked = await hearth('tokens', 'revoke', id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${id} (revoke-me)`);

    const refused = await models(token);
    expect(refused.status).toBe(401);
    expect(JSON.stringify(await refused.json())).toContain('invalid API token: it was revoked or never issued');
    expect((await hearth('tokens', 'list')).stdout).not.toContain('revoke-me');
    const again = await hearth('tokens', 'revoke', id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`unknown API token: ${id}`);
  });

  it('works on the WebSocket too (`hearth mcp serve` / `hearth acp --token`), never past its scopes', async () => {
    const token = await mint('editor', 'operator.read');
    const target = { url: product.host.wsUrl, token };
    const client = await connectToGateway(target, { scopes: ['operator.read'] });
    try {
      expect((await client.waitForConnected()).auth.scopes).toEqual(['operator.read']);
      await expect(client.request('sessions.list', {})).resolves.toHaveProperty('sessions');
      await expect(
        client.request('chat.send', { sessionKey: 'main', message: 'hi', idempotencyKey: 'ws-write' }),
      ).rejects.toThrow('operator.write');
    } finally {
      client.dispose();
    }
    await expect(connectToGateway(target, { scopes: ['operator.read', 'operator.write'] })).rejects.toThrow(
      'this API token holds operator.read; ask for no more',
    );
    expect((await hearth('tokens', 'revoke', 'editor')).code).toBe(0);
    await expect(connectToGateway(target, { scopes: ['operator.read'] })).rejects.toThrow(
      'API token revoked or never issued',
    );
  });

  it('refuses a bad scope or name with the reason', async () => {
    const badScope = await hearth('tokens', 'create', '--name', 'x', '--scopes', 'operator.everything');
    expect(badScope.code).not.toBe(0);
    expect(badScope.stderr).toContain('unknown scope operator.everything');
    const badName = await product.socket.request('tokens.create', { name: 'has space', scopes: ['operator.read'] });
    expect(badName.ok).toBe(false);
    expect(JSON.stringify(badName.error)).toContain('name is letters, digits');
  });
});
