import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmRequest } from '../testing/fake-llm/index.js';
import { fixtureMcpServerCommand } from '../testing/mcp-fixture-server.js';
import { libraryMcpServerCommand } from '../testing/mcp-library-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';

// Resources and prompts of MCP servers in the composed host: a real stdio server built with the SDK
// (src-main/testing/mcp-library-server.ts) whose resources the agent lists and reads in turns through
// the fake LLM, and whose prompts a client lists and fetches over the wire.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: {
      mcp: {
        servers: {
          // `shelve` adds a resource; marked read here so the turn needs no approval.
          library: { ...libraryMcpServerCommand(), connectTimeoutMs: 30_000, tools: { shelve: { access: 'read' } } },
          fixture: { ...fixtureMcpServerCommand(), connectTimeoutMs: 30_000 },
        },
      },
      agents: {
        defaults: { model: 'openai/gpt-4o' },
        list: [{ id: 'main', default: true, mcp: { servers: ['library', 'fixture'] } }, { id: 'plain' }],
      },
      tools: { profile: 'full' },
    },
  });
});
afterAll(async () => {
  await product?.close();
});

function toolNames(request: FakeLlmRequest | undefined): string[] {
  const tools = (request?.body.tools ?? []) as { function?: { name?: string } }[];
  return tools.map((tool) => tool.function?.name ?? '');
}

function toolResults(request: FakeLlmRequest | undefined): string[] {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
}

/** A turn in which the model makes `calls`; answers the tool results the model was sent. */
async function turnCalling(
  key: string,
  calls: { name: string; input: unknown }[],
  sessionKey = 'main',
): Promise<{ results: string[]; tools: string[] }> {
  product.llm.script([
    { type: 'tool_calls', calls },
    { type: 'text', text: 'done' },
  ]);
  const before = product.llm.requests.length;
  const end = await product.turn(key, 'use the library', sessionKey);
  expect(end.state).toBe('final');
  return {
    results: toolResults(product.llm.requests.at(-1)).slice(-calls.length),
    tools: toolNames(product.llm.requests[before]),
  };
}

describe('MCP resources as tools', () => {
  it('an agent that enables a server with resources lists them in a turn; servers without get no such tools', async () => {
    const { results, tools } = await turnCalling('res-list', [{ name: 'library__resources_list', input: {} }]);
    expect(tools).toEqual(
      expect.arrayContaining(['library__resources_list', 'library__resource_read', 'library__shelve', 'fixture__echo']),
    );
    // The fixture server offers no resources capability: no resource tools of its own.
    expect(tools).not.toContain('fixture__resources_list');
    expect(results[0]).toBe(
      [
        '- library://readme  Read me (text/markdown): What the library holds',
        '- library://logo.png  logo (image/png)',
        '',
        'URI templates (fill in the {placeholders} and read the URI):',
        '- library://notes/{id}  note: A note by its number',
      ].join('\n'),
    );
  });

  it('reads text, binary and templated resources; an unknown URI is a tool error', async () => {
    const { results } = await turnCalling('res-read', [
      { name: 'library__resource_read', input: { uri: 'library://readme' } },
      { name: 'library__resource_read', input: { uri: 'library://logo.png' } },
      { name: 'library__resource_read', input: { uri: 'library://notes/7' } },
      { name: 'library__resource_read', input: { uri: 'library://nowhere' } },
    ]);
    expect(results[0]).toBe('[resource library://readme]\n# Library\nTwo shelves.');
    expect(results[1]).toBe('[resource library://logo.png image/png, 8 bytes, not shown]');
    expect(results[2]).toBe('[resource library://notes/7]\nnote number 7');
    expect(results[3]).toMatch(/^MCP server "library": resources\/read library:\/\/nowhere failed: .*not found/i);
  });

  it('a new resource (notifications/resources/list_changed) is listed in the next turn', async () => {
    const { socket } = product;
    const mark = socket.frames.length;
    const shelved = await turnCalling('res-shelve', [
      { name: 'library__shelve', input: { name: 'poem', text: 'roses are red' } },
    ]);
    expect(shelved.results[0]).toBe('shelved poem');
    await socket.next((frame) => {
      if (socket.frames.indexOf(frame) < mark || frame.event !== 'mcp.servers.changed') return false;
      const { server } = frame.payload as { server: { name: string; resourceCount?: number } };
      return server.name === 'library' && server.resourceCount === 3;
    }, 30_000);
    const { results } = await turnCalling('res-after', [
      { name: 'library__resources_list', input: {} },
      { name: 'library__resource_read', input: { uri: 'library://shelf/poem' } },
    ]);
    expect(results[0]).toContain('- library://shelf/poem  shelf-poem (text/plain)');
    expect(results[1]).toBe('[resource library://shelf/poem]\nroses are red');
  });

  it('an agent that does not enable the server gets none of its resource tools', async () => {
    const { tools } = await turnCalling('res-plain', [{ name: 'library__resources_list', input: {} }], 'agent:plain:x');
    expect(tools.some((name) => name.startsWith('library__'))).toBe(false);
  });
});

describe('MCP prompts over the wire', () => {
  it('mcp.prompts.list lists the prompts with their arguments; servers without prompts add none', async () => {
    const listed = await product.socket.request('mcp.prompts.list', {});
    expect(listed.ok, JSON.stringify(listed.error)).toBe(true);
    expect(listed.payload).toEqual({
      prompts: [
        { server: 'library', name: 'greet', description: 'Say hello', arguments: [] },
        {
          server: 'library',
          name: 'summarize',
          title: 'Summarize',
          description: 'Ask for a summary of a topic',
          arguments: [
            { name: 'topic', description: 'what to summarize', required: true },
            { name: 'style', required: false },
          ],
        },
      ],
      errors: [],
    });
    const one = await product.socket.request('mcp.prompts.list', { server: 'fixture' });
    expect(one.payload).toEqual({ prompts: [], errors: [] });
  });

  it('mcp.prompts.get fills a prompt in; missing arguments and unknown prompts are named', async () => {
    const got = await product.socket.request('mcp.prompts.get', {
      server: 'library',
      name: 'summarize',
      arguments: { topic: 'tea', style: 'short' },
    });
    expect(got.payload).toEqual({
      server: 'library',
      name: 'summarize',
      description: 'Summary of tea',
      messages: [{ role: 'user', text: 'Summarize tea in a short style.' }],
    });
    const greet = await product.socket.request('mcp.prompts.get', { server: 'library', name: 'greet' });
    expect(greet.payload).toMatchObject({
      messages: [
        { role: 'user', text: 'Hello!' },
        { role: 'assistant', text: '[image image/gif, 3 bytes, not shown]' },
      ],
    });
    const missing = await product.socket.request('mcp.prompts.get', { server: 'library', name: 'summarize' });
    expect(missing.error).toMatchObject({ message: 'MCP prompt "library/summarize" needs argument topic' });
    const unknown = await product.socket.request('mcp.prompts.get', { server: 'library', name: 'nope' });
    expect(unknown.error).toMatchObject({
      message: 'MCP server "library" has no prompt "nope" (it has: summarize, greet)',
    });
    const none = await product.socket.request('mcp.prompts.get', { server: 'fixture', name: 'x' });
    expect(none.error).toMatchObject({ message: 'MCP server "fixture" offers no prompts' });
    const noServer = await product.socket.request('mcp.prompts.get', { server: 'ghost', name: 'x' });
    expect(noServer.error).toMatchObject({ message: 'no MCP server "ghost" in mcp.servers' });
  });

  it('a read-only client may not fetch prompts (they start servers)', async () => {
    const { socket: reader } = await connectRaw(product.host.wsUrl, {
      token: product.host.token,
      scopes: ['operator.read'],
    });
    try {
      expect((await reader.request('mcp.prompts.list', {})).ok).toBe(false);
    } finally {
      reader.close();
    }
  });
});
