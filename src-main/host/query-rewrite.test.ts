import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { searchOnceIndexed } from '../testing/search-once-indexed.js';

// The wiring of opt-in query rewrite (memory/query-rewrite.test.ts has its behaviour: the prompt,
// the cache, the provider's counts, a failing model): one turn in which the agent's model rewrites
// the query for active recall and memory_search, the host's calls and their tokens reported by
// memory.status.queryRewrite.

const QUESTION = 'how do I get into the flat?';
let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { memory: { queryRewrite: { enabled: true }, recall: { cacheMs: 0 } } },
    before: async (home) => {
      const dir = join(home, 'workspace', 'memory');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, '2026-11-28.md'), '- Door keypad code: 7741#\n');
    },
  });
  await searchOnceIndexed(product.socket, { query: 'door keypad' }, '7741');
});
afterAll(async () => {
  await product?.close();
});

const rewriteUsage = async () =>
  ((await product.socket.request('memory.status', {})).payload as { queryRewrite: Record<string, number | boolean> })
    .queryRewrite;

describe('query rewrite', () => {
  it('the words typed find nothing; rewritten by the model, recall and memory_search find the note', async () => {
    const plain = await product.socket.request('memory.search', { query: QUESTION });
    expect(JSON.stringify(plain.payload)).not.toContain('7741');
    expect(await rewriteUsage()).toMatchObject({ enabled: true, calls: 0 });

    product.llm.script([
      // cachedTokens: only the provider can report those, so a 7 below proves its counts were used.
      { type: 'text', text: 'door keypad code\n- 门禁密码\nflat entrance', cachedTokens: 7 },
      { type: 'tool_calls', calls: [{ name: 'memory_search', input: { query: QUESTION } }] },
      { type: 'text', text: 'The keypad code is 7741#.' },
    ]);
    const before = product.llm.requests.length;
    expect(await product.turn('qr-1', QUESTION)).toMatchObject({ state: 'final' });
    const requests = product.llm.requests.slice(before);
    // The rewrite, the turn's first call (with the recalled note), the call after the tool result.
    expect(requests).toHaveLength(3);
    expect(requests[0]!.lastUserText).toContain('Rewrite the search query');
    expect(requests[1]!.lastUserText).toMatch(/^Memory: .*Door keypad code: 7741#/);
    expect(JSON.stringify(requests[2]!.body)).toContain('memory/2026-11-28.md');

    // memory_search asked the same words: the rewrite came from the cache, no second call.
    const usage = await rewriteUsage();
    expect(usage).toMatchObject({ enabled: true, calls: 1, cacheHits: 1, failures: 0 });
    // The provider's own counts (the fake reports them like OpenAI does), not an estimate.
    expect(usage).toMatchObject({ cachedInputTokens: 7, estimatedCalls: 0 });
    expect(usage.inputTokens).toBeGreaterThan(20);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });
});
