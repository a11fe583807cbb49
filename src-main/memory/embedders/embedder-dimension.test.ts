import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lanceDbMemoryBackend } from '../../../extensions/memory-lancedb/index.js';
import { silentLogger } from '../../base/logger.js';
import { createHearthPaths } from '../../paths/index.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from '../../testing/fake-embeddings.js';
import { createTempHome } from '../../testing/temp-home.js';
import { parseMemoryConfig } from '../memory-config.js';
import { MemoryEngine } from '../memory-engine.js';
import { EmbedderError } from './embedder.js';
import { ensureEmbedderDimension } from './embedder-dimension.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { createProviderEmbedder } from './provider-embedder.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fakeServer(options: { apiKey?: string } = {}): Promise<FakeEmbeddingsServer> {
  const server = await startFakeEmbeddingsServer({ dimension: 16, ...options });
  cleanups.push(() => server.close());
  return server;
}

const openai = (server: FakeEmbeddingsServer, extra: { apiKey?: string; dimension?: number } = {}) =>
  createProviderEmbedder({ provider: 'openai', model: 'text-embedding-3-small', baseUrl: server.baseUrl, ...extra });

describe('ensureEmbedderDimension', () => {
  it('learns an unconfigured provider dimension with one short request, once', async () => {
    const server = await fakeServer();
    const embedder = openai(server, { apiKey: 'sk-test' });
    expect(embedder.dimension).toBe(0);
    expect(await ensureEmbedderDimension(embedder)).toBe(16);
    expect(await ensureEmbedderDimension(embedder)).toBe(16);
    expect(server.requests.map((request) => request.input)).toEqual([['dimension probe']]);
  });

  it('costs nothing when the dimension is known', async () => {
    const server = await fakeServer();
    expect(await ensureEmbedderDimension(openai(server, { dimension: 16 }))).toBe(16);
    expect(await ensureEmbedderDimension(createHashedEmbedder(64))).toBe(64);
    expect(server.requests).toEqual([]);
  });

  it('a provider that fails: the engine does not open and leaves nothing on disk', async () => {
    const server = await fakeServer({ apiKey: 'sk-right' });
    const { home, cleanup } = await createTempHome('hearth-embed-dim-');
    cleanups.push(cleanup);
    const paths = createHearthPaths(home);
    await mkdir(paths.workspaceDir('main'), { recursive: true });
    await writeFile(join(paths.workspaceDir('main'), 'MEMORY.md'), '- Lives in Ghent\n');
    const engine = new MemoryEngine({
      agentId: 'main',
      workspaceDir: paths.workspaceDir('main'),
      dbDir: paths.memoryDbDir('main'),
      backend: lanceDbMemoryBackend,
      embedder: openai(server, { apiKey: 'sk-wrong' }),
      config: parseMemoryConfig({}),
      clock: createFakeClock(),
      log: silentLogger,
    });
    const opening = engine.open();
    await expect(opening).rejects.toBeInstanceOf(EmbedderError);
    await expect(opening).rejects.toThrow(
      'could not learn the vector dimension of openai:text-embedding-3-small: openai embeddings (text-embedding-3-small) failed: Incorrect API key provided',
    );
    expect(existsSync(paths.memoryDbDir('main'))).toBe(false);
  });
});
