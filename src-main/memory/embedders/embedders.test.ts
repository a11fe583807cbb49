import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lanceDbMemoryBackend } from '../../../extensions/memory-lancedb/index.js';
import { silentLogger } from '../../base/logger.js';
import { createHearthPaths } from '../../paths/index.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from '../../testing/fake-embeddings.js';
import { parseMemoryConfig } from '../memory-config.js';
import { MemoryEngine } from '../memory-engine.js';
import type { IndexProgress } from '../memory-index.js';
import { createEmbedder } from './create-embedder.js';
import { dot } from './embedder.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { createProviderEmbedder } from './provider-embedder.js';

let server: FakeEmbeddingsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('embedders', () => {
  it('hashed: deterministic, unit length, typo- and CJK-tolerant', async () => {
    const embedder = createHashedEmbedder(384);
    const [a, b, c, d, e] = await embedder.embed([
      'restaurant booking',
      'resturant booking',
      'garden hose',
      '我喜欢喝茶',
      '喜欢喝茶',
    ]);
    expect(embedder.id).toBe('hashed-v2:384');
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
    expect(dot(d!, e!)).toBeGreaterThan(0.6);
    expect((await embedder.embed(['restaurant booking']))[0]).toEqual(a);
    expect(() => createHashedEmbedder(8)).toThrow(/dimension must be ≥ 32/);
  });

  it('provider: OpenAI embeddings through the AI SDK against a loopback server', async () => {
    server = await startFakeEmbeddingsServer({ dimension: 16 });
    const embedder = createProviderEmbedder({
      provider: 'openai',
      model: 'text-embedding-3-small',
      baseUrl: server.baseUrl,
      apiKey: 'sk-test',
    });
    const vectors = await embedder.embed(['hello world', 'second text']);
    expect(vectors).toHaveLength(2);
    expect(embedder.dimension).toBe(16);
    expect(dot(vectors[0]!, vectors[0]!)).toBeCloseTo(1, 5);
    expect(server.requests[0]).toMatchObject({
      model: 'text-embedding-3-small',
      input: ['hello world', 'second text'],
      authorization: 'Bearer sk-test',
    });
    server.failWith(401, 'Incorrect API key provided');
    await expect(embedder.embed(['x'])).rejects.toThrow(
      /openai embeddings \(text-embedding-3-small\) failed: Incorrect API key provided/,
    );
  });

  it('provider: an unknown kind is refused when the embedder is made, before any SDK is loaded', () => {
    expect(() =>
      createProviderEmbedder({ provider: 'cohere' as never, model: 'embed-v4', baseUrl: 'http://127.0.0.1:9' }),
    ).toThrow(/unknown embeddings provider: cohere/);
  });

  it('an embedder change re-embeds every file in the background, with progress', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hearth-reembed-'));
    const paths = createHearthPaths(home);
    await writeFile(join(await ensure(paths.workspaceDir('main')), 'MEMORY.md'), '- Lives in Ghent\n');
    const build = (embedder: Awaited<ReturnType<typeof createEmbedder>>, progress: IndexProgress[] = []) =>
      new MemoryEngine({
        agentId: 'main',
        workspaceDir: paths.workspaceDir('main'),
        dbDir: paths.memoryDbDir('main'),
        backend: lanceDbMemoryBackend,
        embedder,
        config: parseMemoryConfig({}),
        clock: createFakeClock(),
        log: silentLogger,
        onProgress: (item) => progress.push(item),
      });
    const first = build(createHashedEmbedder(384));
    await first.open();
    await first.sync();
    await first.close();

    server = await startFakeEmbeddingsServer({ dimension: 16 });
    const progress: IndexProgress[] = [];
    const second = build(
      await createEmbedder(
        parseMemoryConfig({
          embedder: { kind: 'provider', provider: 'openai', model: 'm', baseUrl: server.baseUrl, dimension: 16 },
        }).embedder,
      ),
      progress,
    );
    const opened = await second.open();
    expect(opened.needsSync).toBe(true);
    expect(opened.recovered).toMatch(/dimension changed \(384 → 16\)/);
    await second.sync();
    expect(progress.at(-1)).toMatchObject({ phase: 'reembed', done: 1, total: 1 });
    expect((await second.status()).embedder).toEqual({ id: 'openai:m', dimension: 16 });
    expect((await second.search('Ghent', { scope: second.defaultScope(), minScore: 0 }))[0]?.path).toBe('MEMORY.md');
    await second.close();
  });

  it('rejects a bad embedder config naming the field', () => {
    expect(() => parseMemoryConfig({ embedder: { kind: 'provider', provider: 'acme', model: 'x' } })).toThrow(
      /memory\.embedder\.provider/,
    );
    expect(() => parseMemoryConfig({ search: { vectorWeight: 2 } })).toThrow(/memory\.search\.vectorWeight/);
  });
});

async function ensure(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
