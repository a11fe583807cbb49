import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// A workspace file over its budget is cut (head + tail, marker in the middle) and the model is told
// once — so it reads the full file with a tool instead of trusting the cut copy.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { agents: { defaults: { model: 'openai/gpt-4o', bootstrap: { maxChars: 600, warningMode: 'once' } } } },
    before: async (home) => {
      await mkdir(join(home, 'workspace'), { recursive: true });
      const long = Array.from({ length: 200 }, (_, i) => `- tool note ${i}: use the right tool for the job.`).join(
        '\n',
      );
      await writeFile(join(home, 'workspace', 'TOOLS.md'), `# Tools\n\nHEAD-MARKER\n${long}\nTAIL-MARKER\n`);
    },
  });
});
afterAll(async () => {
  await product?.close();
});

describe('workspace files over budget', () => {
  it('cuts them, keeps head and tail, and warns the model once', async () => {
    product.llm.script([
      { type: 'text', text: 'ok' },
      { type: 'text', text: 'ok again' },
    ]);
    await product.turn('w-1', 'hello');
    const first = JSON.stringify(product.llm.requests.at(-1)!.body);
    expect(first).toContain('HEAD-MARKER');
    expect(first).toContain('TAIL-MARKER');
    expect(first).not.toContain('tool note 100:');
    expect(first).toContain('were cut to fit the prompt budget');
    expect(first).toMatch(/- TOOLS\.md: \d+ chars, \d+ injected/);
    await product.turn('w-2', 'and again');
    const second = JSON.stringify(product.llm.requests.at(-1)!.body);
    // "once": the same cut is not announced again.
    expect(second).not.toContain('were cut to fit the prompt budget');
  });
});
