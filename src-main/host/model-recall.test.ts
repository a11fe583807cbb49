import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Opt-in model recall: when the cheap pass finds only weak hits, a model reads them and its short
// summary reaches the turn as the hidden prefix.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { memory: { recall: { style: 'strict', model: true } } },
    before: async (home) => {
      const dir = join(home, 'workspace', 'memory');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, '2026-11-28.md'), '- Moored the sailing boat at pier 7 in Cascais.\n');
    },
  });
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = await product.socket.request('memory.search', { query: 'boat pier' });
    if (JSON.stringify(found.payload).includes('pier 7')) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
afterAll(async () => {
  await product?.close();
});

describe('model recall', () => {
  it('summarises weak hits for the turn when nothing strong was found', async () => {
    product.llm.script([
      { type: 'text', text: 'RECALL-MARKER: the boat is at pier 7 in Cascais.' },
      { type: 'text', text: 'It is at pier 7.' },
    ]);
    const before = product.llm.requests.length;
    const end = await product.turn('r-1', 'where did I leave the vessel last weekend?');
    expect(end).toMatchObject({ state: 'final' });
    const requests = product.llm.requests.slice(before);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[0]!.body)).toContain('Memory notes:');
    expect(JSON.stringify(requests[1]!.body)).toContain('RECALL-MARKER');
  });
});
