import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFixture, type MemoryFixture } from '../../testing/memory-test-fixture.js';
import { writeOnnxModelFixture } from '../../testing/onnx-model-fixture.js';
import { parseMemoryConfig } from '../memory-config.js';
import { createEmbedder } from './create-embedder.js';
import { dot } from './embedder.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { createOnnxEmbedder } from './onnx-embedder.js';

const freshDir = () => mkdtemp(join(tmpdir(), 'hearth-onnx-'));

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
});

describe('onnx embedder (ONNX Runtime WebAssembly + tokenizer.json)', () => {
  it('embeds with the model the user supplied: synonyms close, Chinese too, unit length, stable', async () => {
    const model = await writeOnnxModelFixture(await freshDir());
    const embedder = await createEmbedder({ kind: 'onnx', modelDir: model.dir });
    expect(embedder.dimension).toBe(model.dimension);
    expect(embedder.id).toMatch(/^onnx:hearth-onnx-\w+@[0-9a-f]{12}$/);
    const [tea, chai, coffee, zhTea] = await embedder.embed([
      'I drink tea every morning',
      'chai every morning',
      'I drink coffee every morning',
      '我喜欢茶',
    ]);
    expect(dot(tea!, tea!)).toBeCloseTo(1, 5);
    // The words share no letters: only the model's vectors can put them together.
    expect(dot(tea!, chai!)).toBeGreaterThan(dot(tea!, coffee!));
    expect(dot(zhTea!, chai!)).toBeGreaterThan(dot(zhTea!, coffee!));
    expect((await embedder.embed(['I drink tea every morning']))[0]).toEqual(tea);
  });

  it('finds a note by meaning through memory search where the n-gram embedder cannot', async () => {
    const model = await writeOnnxModelFixture(await freshDir());
    const vectorOnly = { search: { vectorWeight: 1, textWeight: 0, minScore: 0 } };
    const notes = {
      'memory/2026-11-27.md': '- [preference] Matcha at the airport lounge\n',
      'memory/2026-11-28.md': '- [fact] The garden hose leaks near the tomatoes\n',
      'memory/2026-11-29.md': '- [fact] Espresso and a latte on the plane\n',
    };
    const topFor = async (embedder: Awaited<ReturnType<typeof createEmbedder>>) => {
      fixture = await createMemoryFixture({ config: vectorOnly, embedder });
      for (const [path, text] of Object.entries(notes)) await fixture.write(path, text);
      await fixture.engine.open();
      await fixture.engine.sync();
      const hits = await fixture.engine.search('chai', { scope: fixture.engine.defaultScope() });
      await fixture.engine.close();
      fixture = undefined;
      return hits[0]?.path;
    };
    expect(await topFor(await createOnnxEmbedder({ modelDir: model.dir }))).toBe('memory/2026-11-27.md');
    expect(await topFor(createHashedEmbedder(384))).not.toBe('memory/2026-11-27.md');
  });

  it('feeds only the inputs the graph declares, and cuts long texts to the token budget', async () => {
    const model = await writeOnnxModelFixture(await freshDir(), { inputs: ['input_ids'] });
    const embedder = await createOnnxEmbedder({ modelDir: model.dir, maxTokens: 16 });
    const long = `${'tea '.repeat(5_000)}coffee`;
    const [vector] = await embedder.embed([long]);
    expect(vector).toHaveLength(model.dimension);
    const [tea] = await embedder.embed(['tea']);
    expect(dot(vector!, tea!)).toBeGreaterThan(0.9);
  });

  it('a replaced model.onnx gets a new embedder id, so the index is re-embedded', async () => {
    const dir = await freshDir();
    await writeOnnxModelFixture(dir);
    const before = await createOnnxEmbedder({ modelDir: dir });
    await writeOnnxModelFixture(dir, { variant: 3 });
    const after = await createOnnxEmbedder({ modelDir: dir });
    expect(after.id).not.toBe(before.id);
    expect(after.id.split('@')[0]).toBe(before.id.split('@')[0]);
  });

  it('runs the model in its own thread, which close() stops: later calls say so', async () => {
    const model = await writeOnnxModelFixture(await freshDir());
    const embedder = await createOnnxEmbedder({ modelDir: model.dir });
    const [first] = await embedder.embed(['tea']);
    expect(first).toHaveLength(model.dimension);
    await embedder.close();
    await expect(embedder.embed(['tea'])).rejects.toThrow(/onnx embedder is closed/);
  });

  it('says exactly what is wrong with the files, and how to get a model', async () => {
    const dir = await freshDir();
    await expect(createOnnxEmbedder({ modelDir: dir })).rejects.toThrow(
      /missing model\.onnx or onnx\/model\.onnx, tokenizer\.json \(install a model with `hearth memory model install`, or put the files there yourself\)/,
    );
    await writeOnnxModelFixture(dir);
    await writeFile(join(dir, 'tokenizer.json'), '{"model": ');
    await expect(createOnnxEmbedder({ modelDir: dir })).rejects.toThrow(/tokenizer\.json is not valid JSON/);

    const corrupt = await writeOnnxModelFixture(await freshDir());
    await writeFile(join(corrupt.dir, 'model.onnx'), 'this is not a protobuf');
    await expect(createOnnxEmbedder({ modelDir: corrupt.dir })).rejects.toThrow(/could not load .*model\.onnx/);

    const vision = await writeOnnxModelFixture(await freshDir(), { inputs: ['pixel_values'] });
    await expect(createOnnxEmbedder({ modelDir: vision.dir })).rejects.toThrow(
      /expects inputs pixel_values; a text-embedding model takes input_ids/,
    );
    expect(() => parseMemoryConfig({ embedder: { kind: 'onnx', modelDir: 'models/minilm' } })).toThrow(
      /memory\.embedder\.modelDir: must be an absolute path/,
    );
  });
});
