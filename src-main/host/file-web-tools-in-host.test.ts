import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/cli-run.js';
import type { FakeLlmRequest } from '../testing/fake-llm/index.js';
import { type FakeSearchServer, startFakeSearchServer } from '../testing/fake-search-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// The file tools, web_fetch and web_search in the composed product, against the fake LLM: the
// file tools are in the default (coding) core, the web tools are loaded on demand (web_search
// only once tools.web.search names a provider), and all keep their refusals.

// A 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let product: ProductFixture;
let brave: FakeSearchServer;
beforeAll(async () => {
  brave = await startFakeSearchServer('brave', 'brave-key-123');
  product = await startProductFixture({
    before: async (home) => {
      await mkdir(join(home, 'workspace'), { recursive: true });
      await writeFile(join(home, 'workspace', 'hello.txt'), 'hello from the workspace\n');
      await writeFile(join(home, 'workspace', 'logo.png'), png);
    },
  });
});
afterAll(async () => {
  await product?.close();
  await brave?.close();
});

/** The text of every tool result the model was sent in this request. */
const sent = (request: FakeLlmRequest) => JSON.stringify(request.body);

function toolNames(request: FakeLlmRequest): string[] {
  const tools = (request.body.tools ?? []) as { name?: string; function?: { name: string } }[];
  return tools.map((tool) => tool.function?.name ?? tool.name ?? '?');
}

describe('file and web tools in the product', () => {
  it('gives the model the file tools in its core and runs them in the workspace without asking', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'read', input: { path: 'hello.txt' } }] },
      { type: 'tool_calls', calls: [{ name: 'read', input: { path: '~/.ssh/id_ed25519' } }] },
      { type: 'text', text: 'It says hello.' },
    ]);
    expect(await product.turn('files-1', 'what does hello.txt say?')).toMatchObject({ state: 'final' });
    const calls = product.llm.requests.slice(before);
    expect(toolNames(calls[0]!)).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'list', 'find', 'grep']));
    expect(toolNames(calls[0]!)).not.toContain('web_fetch');
    expect(JSON.stringify(calls[1]!.body)).toContain('hello from the workspace');
    expect(JSON.stringify(calls[2]!.body)).toContain(
      'refused: ~/.ssh/id_ed25519 is inside ~/.ssh; file tools never touch it',
    );
  });

  it('finds web_fetch with tools_search, and refuses loopback addresses by default', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_search', input: { query: 'fetch a web page' } }] },
      { type: 'tool_calls', calls: [{ name: 'tools_load', input: { names: ['web_fetch'] } }] },
      { type: 'tool_calls', calls: [{ name: 'web_fetch', input: { url: product.host.url } }] },
      { type: 'text', text: 'That address is not allowed.' },
    ]);
    expect(await product.turn('web-1', 'fetch the gateway page')).toMatchObject({ state: 'final' });
    const calls = product.llm.requests.slice(before);
    expect(JSON.stringify(calls[1]!.body)).toContain('web_fetch: Fetch a web page as readable markdown.');
    expect(toolNames(calls[2]!)).toContain('web_fetch');
    expect(JSON.stringify(calls[3]!.body)).toMatch(
      /refused: http:\/\/127\.0\.0\.1:\d+\/ leads to 127\.0\.0\.1 \(loopback address\)/,
    );
  });
});

describe('web_search in the product', () => {
  it('is absent until tools.web.search names a provider; then loads, names a missing key, and searches once it is stored', async () => {
    let before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_search', input: { query: 'search the web' } }] },
      { type: 'text', text: 'I cannot search the web here.' },
    ]);
    expect(await product.turn('search-0', 'search the web for hearth', 'agent:main:search-off')).toMatchObject({
      state: 'final',
    });
    let calls = product.llm.requests.slice(before);
    expect(sent(calls[1]!)).toContain('web_fetch: Fetch a web page');
    expect(sent(calls[1]!)).not.toContain('web_search');

    // Configured while the gateway runs (as `hearth config set` or the Settings view would).
    await product.socket.request('config.patch', {
      patch: { tools: { web: { search: { provider: 'brave', url: brave.baseUrl } } } },
    });
    before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_search', input: { query: 'search the web' } }] },
      { type: 'tool_calls', calls: [{ name: 'tools_load', input: { names: ['web_search'] } }] },
      { type: 'tool_calls', calls: [{ name: 'web_search', input: { query: 'hearth agent', count: 5 } }] },
      { type: 'text', text: 'The search key is missing.' },
    ]);
    expect(await product.turn('search-1', 'search the web for hearth agent', 'agent:main:search')).toMatchObject({
      state: 'final',
    });
    calls = product.llm.requests.slice(before);
    expect(sent(calls[1]!)).toContain('web_search: Search the web; returns titles, URLs and snippets.');
    expect(toolNames(calls[2]!)).toContain('web_search');
    expect(sent(calls[3]!)).toContain(
      'web_search: the Brave Search API key is not in the secret store (encrypted-file): tools.web.search.apiKeySecret is \\"auth-profile:brave-search\\" (the default), and the store has no such entry; store the key with: hearth auth set brave-search --provider brave (the key on stdin)',
    );
    expect(brave.requests).toHaveLength(0);

    // The person stores the key the way the error says; the running gateway uses it at once.
    const stored = await runCliCaptured(
      ['auth', 'set', 'brave-search', '--provider', 'brave'],
      { HEARTH_HOME: product.home, HEARTH_SECRET_STORE: 'file' },
      'brave-key-123\n',
    );
    expect(stored).toMatchObject({ code: 0, stdout: 'Saved auth profile "brave-search" (brave, api_key).\n' });
    before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'web_search', input: { query: 'hearth agent', count: 5 } }] },
      { type: 'text', text: 'Found two pages.' },
    ]);
    expect(await product.turn('search-2', 'try again', 'agent:main:search')).toMatchObject({ state: 'final' });
    calls = product.llm.requests.slice(before);
    expect(toolNames(calls[0]!)).toContain('web_search'); // still loaded from the earlier turn
    expect(sent(calls[1]!)).toContain('1. Brave: hearth agent\\n   https://example.com/a');
    expect(brave.requests.at(-1)).toMatchObject({ url: '/res/v1/web/search?q=hearth%20agent&count=5' });
    expect(brave.requests.at(-1)!.headers['x-subscription-token']).toBe('brave-key-123');

    await product.socket.request('config.patch', { patch: { tools: { web: { search: null } } } });
    before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'tools_search', input: { query: 'search the web' } }] },
      { type: 'text', text: 'Gone.' },
    ]);
    expect(await product.turn('search-3', 'search again', 'agent:main:search-after')).toMatchObject({ state: 'final' });
    expect(sent(product.llm.requests.slice(before)[1]!)).not.toContain('web_search');
  });
});

describe('read of an image in the product', () => {
  it('describes the image to a model that cannot be sent one (Chat Completions), with name, size and pixels', async () => {
    const before = product.llm.requests.length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'read', input: { path: 'logo.png' } }] },
      { type: 'text', text: 'I cannot see it.' },
    ]);
    expect(await product.turn('image-1', 'what is in logo.png?', 'agent:main:images-chat')).toMatchObject({
      state: 'final',
    });
    const toModel = sent(product.llm.requests.slice(before)[1]!);
    expect(toModel).toContain(
      `logo.png: PNG image, ${png.length} bytes, 1×1 pixels. Not shown: the openai API cannot carry images in a tool result, so openai/gpt-4o cannot see them here`,
    );
    expect(toModel).not.toContain(png.toString('base64'));
  });

  it('sends the image itself to a model that takes images through an API that carries them', async () => {
    await product.socket.request('config.patch', {
      patch: {
        providers: { anthropic: { kind: 'anthropic', baseURL: product.llm.baseUrlFor('anthropic') } },
        agents: { defaults: { model: 'anthropic/claude-sonnet-4-5' } },
      },
    });
    await product.socket.request('auth.profiles.set', {
      id: 'anthropic-main',
      provider: 'anthropic',
      type: 'api_key',
      secret: 'sk-ant-test-1234',
    });
    try {
      const before = product.llm.requests.length;
      product.llm.script([
        { type: 'tool_calls', calls: [{ name: 'read', input: { path: 'logo.png' } }] },
        { type: 'text', text: 'A single pixel.' },
      ]);
      expect(await product.turn('image-2', 'what is in logo.png?', 'agent:main:images-claude')).toMatchObject({
        state: 'final',
      });
      const request = product.llm.requests.slice(before)[1]!;
      expect(request.provider).toBe('anthropic');
      expect(sent(request)).toContain(
        `"source":{"type":"base64","media_type":"image/png","data":"${png.toString('base64')}"}`,
      );
      expect(sent(request)).not.toContain('Not shown');
    } finally {
      await product.socket.request('config.patch', { patch: { agents: { defaults: { model: 'openai/gpt-4o' } } } });
    }
  });
});
