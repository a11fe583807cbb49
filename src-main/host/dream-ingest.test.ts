import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantRecalls } from '../testing/planted-recalls.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Dreaming's way in from conversations: with auto-capture off, a preference stated in chat still
// reaches the daily memory file when Dreaming runs — with the API key in the same message redacted.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({ config: { memory: { capture: { enabled: false } } } });
});
afterAll(async () => {
  await product?.close();
});

describe('Dreaming ingests recent transcripts', () => {
  it('files what the user said, redacted, before a dream that writes', async () => {
    product.llm.script([{ type: 'text', text: 'Noted.' }]);
    await product.turn('d-1', 'I prefer green tea in the morning, my key is sk-abcdefghijklmnopqrstuvwx1234');
    const memoryDir = join(product.home, 'workspace', 'memory');
    const before = (await readdir(memoryDir).catch(() => [] as string[])).filter((f) =>
      /^\d{4}-\d{2}-\d{2}\.md$/.test(f),
    );
    const daily = await Promise.all(before.map((f) => readFile(join(memoryDir, f), 'utf8')));
    expect(daily.join('\n')).not.toContain('green tea');
    // A preview (the Dreams view's "what would happen") writes nothing.
    expect((await product.socket.request('dreams.run', {})).ok).toBe(true);
    const previewed = (await readdir(memoryDir).catch(() => [] as string[])).filter((f) =>
      /^\d{4}-\d{2}-\d{2}\.md$/.test(f),
    );
    const afterPreview = await Promise.all(previewed.map((f) => readFile(join(memoryDir, f), 'utf8')));
    expect(afterPreview.join('\n')).not.toContain('green tea');
    const run = await product.socket.request('dreams.run', { apply: true });
    expect(run.ok).toBe(true);
    const after = (await readdir(memoryDir)).filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f));
    const text = (await Promise.all(after.map((f) => readFile(join(memoryDir, f), 'utf8')))).join('\n');
    expect(text).toContain('green tea');
    expect(text).not.toContain('sk-abcdefghijklmnopqrstuvwx1234');
    // Filing the conversation is the run's first phase, counted (the preview skipped it).
    const status = await product.socket.request('dreams.status', {});
    expect((status.payload as { run: { phases: unknown[] } }).run.phases[0]).toEqual({
      name: 'ingest',
      state: 'done',
      done: 1,
      total: 1,
    });
  });
});

describe('the Dreams diary', () => {
  it('is written by the configured model when there is one', async () => {
    // A run that finds nothing writes nothing: give Dreaming a note to promote.
    const workspace = join(product.home, 'workspace');
    await mkdir(join(workspace, 'memory'), { recursive: true });
    await writeFile(join(workspace, 'memory', '2026-11-20.md'), '- The bike lock code is 4-4-1-9\n');
    await plantRecalls(
      workspace,
      [{ text: 'The bike lock code is 4-4-1-9', path: 'memory/2026-11-20.md', line: 1 }],
      new Date(),
    );
    product.llm.script([{ type: 'text', text: 'DIARY-MARKER: tonight I wandered through the notes about tea.' }]);
    const run = await product.socket.request('dreams.run', { apply: true });
    expect(run.ok).toBe(true);
    const diary = await readFile(join(product.home, 'workspace', 'DREAMS.md'), 'utf8');
    expect(diary).toContain('DIARY-MARKER');
  });
});
