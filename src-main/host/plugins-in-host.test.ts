import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Bundled plugins load in the composed host: an agent configured to use the lexical context
// engine (extensions/context-lexical) answers through it; an unsafe user plugin is refused
// without taking the host down.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    config: { agents: { defaults: { model: 'openai/gpt-4o', contextEngine: 'lexical' } } },
    before: async (home) => {
      const unsafe = join(home, 'extensions', 'loose');
      await mkdir(unsafe, { recursive: true });
      await writeFile(join(unsafe, 'hearth.plugin.json'), JSON.stringify({ id: 'loose', main: 'index.js' }));
      await writeFile(
        join(unsafe, 'index.js'),
        'export default { id: "loose", register() { throw new Error("must never run"); } };',
      );
      await chmod(join(unsafe, 'index.js'), 0o666);
      // A user plugin that adds a workspace file to every run's bootstrap.
      const hooker = join(home, 'extensions', 'extra-notes');
      await mkdir(hooker, { recursive: true });
      await writeFile(join(hooker, 'hearth.plugin.json'), JSON.stringify({ id: 'extra-notes', main: 'index.js' }));
      await writeFile(
        join(hooker, 'index.js'),
        'export default { id: "extra-notes", register(api) { api.registerBootstrapFilesHook((files) => [...files, "PROJECT.md"]); } };',
      );
      await mkdir(join(home, 'workspace'), { recursive: true });
      await writeFile(
        join(home, 'workspace', 'PROJECT.md'),
        '# Project\n\nPROJECT-MARKER: the plugin put this here.\n',
      );
    },
  });
});
afterAll(async () => {
  await product?.close();
});

describe('plugins in the composed host', () => {
  it('answers through the lexical context engine plugin', async () => {
    product.llm.script([{ type: 'text', text: 'Answered via lexical.' }]);
    const end = await product.turn('p-1', 'hello');
    expect(end).toMatchObject({ state: 'final' });
    expect(JSON.stringify(end)).toContain('Answered via lexical.');
    // The plugin's bootstrap hook added PROJECT.md to what the model sees.
    expect(JSON.stringify(product.llm.requests.at(-1)!.body)).toContain('PROJECT-MARKER');
  });
});
