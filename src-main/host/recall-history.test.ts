import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Active recall in mode "recent" reads the session's earlier user messages too: a follow-up that
// says nothing on its own ("and where did I leave it?") still brings back what the previous
// message was about.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { memory: { recall: { mode: 'recent' } } },
    before: async (home) => {
      const dir = join(home, 'workspace', 'memory');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, '2026-11-28.md'), '- My sailing boat Seabird is moored at pier 7 in Cascais.\n');
    },
  });
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = await product.socket.request('memory.search', { query: 'sailing boat Seabird' });
    if (JSON.stringify(found.payload).includes('pier 7')) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
afterAll(async () => {
  await product?.close();
});

/** The user message the model received last, hidden recall prefix included. */
async function lastUserMessageFor(key: string, message: string, sessionKey: string): Promise<string> {
  product.llm.script([{ type: 'text', text: 'Sure.' }]);
  const end = await product.turn(key, message, sessionKey);
  expect(end).toMatchObject({ state: 'final' });
  return product.llm.requests.at(-1)!.lastUserText;
}

describe('active recall with the session’s history', () => {
  const followUp = 'And where did I leave it?';

  it('finds nothing for the follow-up alone', async () => {
    expect(await lastUserMessageFor('alone-1', followUp, 'agent:main:webchat:direct:someone')).not.toContain('pier 7');
  });

  it('recalls what the previous message was about for the follow-up', async () => {
    await lastUserMessageFor('h-1', 'Tell me about my sailing boat Seabird.', 'main');
    const second = await lastUserMessageFor('h-2', followUp, 'main');
    expect(second).toContain(followUp);
    expect(second).toMatch(/^Memory: .*pier 7/);
  });
});
