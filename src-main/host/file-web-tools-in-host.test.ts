import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmRequest } from '../testing/fake-llm/index.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// The file tools and web_fetch in the composed product, against the fake LLM: the file tools are
// in the default (coding) core, web_fetch is loaded on demand, and both keep their refusals.

let product: ProductFixture;
beforeAll(async () => {
  product = await startProductFixture({
    before: async (home) => {
      await mkdir(join(home, 'workspace'), { recursive: true });
      await writeFile(join(home, 'workspace', 'hello.txt'), 'hello from the workspace\n');
    },
  });
});
afterAll(async () => {
  await product?.close();
});

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
