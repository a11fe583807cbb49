import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeModelHost,
  readModelFiles,
  servedCatalogueEntry,
  startFakeModelHost,
} from '../testing/fake-model-host.js';
import { writeOnnxModelFixture } from '../testing/onnx-model-fixture.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { connectRaw } from '../testing/raw-gateway-socket.js';

// A person turns semantic recall on from the Memory view: memory.model.install downloads the
// model from (here) a loopback stand-in for Hugging Face, reports progress as events, switches
// memory.embedder, and memory re-embeds in the background — after which search works by meaning.

const FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'];
let product: ProductFixture;
let modelHost: FakeModelHost;
let source: string;

beforeAll(async () => {
  source = await mkdtemp(join(tmpdir(), 'hearth-model-source-'));
  const model = await writeOnnxModelFixture(source);
  modelHost = await startFakeModelHost(await readModelFiles(model.dir, FILES));
  const gone = await startFakeModelHost(await readModelFiles(model.dir, FILES));
  const unreachable = servedCatalogueEntry(gone, 'unreachable-model', FILES);
  await gone.close();
  product = await startProductFixture({
    config: {
      memory: {
        models: [servedCatalogueEntry(modelHost, 'tiny-encoder', FILES), unreachable],
        search: { vectorWeight: 1, textWeight: 0, minScore: 0 },
      },
    },
    before: async (home) => {
      const dir = join(home, 'workspace', 'memory');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, '2026-11-27.md'), '- [preference] Matcha at the airport lounge\n');
      await writeFile(join(dir, '2026-11-28.md'), '- [fact] The garden hose leaks near the tomatoes\n');
    },
  });
});
afterAll(async () => {
  await product?.close();
  await modelHost?.close();
});

const modelEvent = (state: string) => (f: { event?: string; payload?: unknown }) =>
  f.event === 'memory.changed' &&
  (f.payload as { reason?: string; model?: { state?: string } }).reason === 'model' &&
  (f.payload as { model: { state: string } }).model.state === state;

describe('installing a local embedding model from the gateway', () => {
  it('needs operator.admin to install', async () => {
    const { socket } = await connectRaw(product.host.wsUrl, { token: product.host.token, scopes: ['operator.read'] });
    const list = await socket.request('memory.model.list', {});
    expect(list.ok).toBe(true);
    const refused = await socket.request('memory.model.install', { name: 'tiny-encoder' });
    expect(refused.ok).toBe(false);
    socket.close();
  });

  it('offline: the install fails with the reason, and memory keeps the lexical engine', async () => {
    const { socket } = product;
    const failed = socket.next(modelEvent('failed'), 15_000);
    const started = await socket.request('memory.model.install', { name: 'unreachable-model' });
    expect(started.payload).toMatchObject({ state: 'downloading', name: 'unreachable-model' });
    const event = await failed;
    expect((event.payload as { model: { error: string } }).model.error).toMatch(
      /could not download unreachable-model: could not reach 127\.0\.0\.1:\d+: .*You may be offline; memory search keeps using the offline lexical engine/,
    );
    const status = await socket.request('memory.model.status', {});
    expect(status.payload).toMatchObject({ state: 'failed', failure: 'unreachable' });
    expect(JSON.parse(await readFile(join(product.home, 'hearth.json'), 'utf8')).memory.embedder).toBeUndefined();
  });

  it('downloads with progress, switches memory.embedder, re-embeds, and then finds notes by meaning', async () => {
    const { socket } = product;
    const before = await socket.request('memory.model.list', {});
    expect((before.payload as { models: { name: string; installed: boolean }[] }).models).toContainEqual(
      expect.objectContaining({ name: 'tiny-encoder', installed: false, active: false }),
    );
    const mark = socket.frames.length;
    const installed = socket.next(modelEvent('installed'), 30_000);
    const reopened = socket.next(
      (f) =>
        socket.frames.indexOf(f) >= mark &&
        f.event === 'memory.changed' &&
        (f.payload as { reason?: string }).reason === 'config',
      30_000,
    );
    const started = await socket.request('memory.model.install', { name: 'tiny-encoder' });
    expect(started.ok).toBe(true);
    await installed;
    await reopened;
    const progress = socket.frames
      .slice(mark)
      .filter((f) => f.event === 'memory.changed' && (f.payload as { reason?: string }).reason === 'model')
      .map((f) => (f.payload as { model: { state: string } }).model.state);
    expect(progress).toContain('downloading');
    expect(progress).toContain('verifying');
    // Then the background re-embed, with its own progress.
    await socket.next(
      (f) =>
        f.event === 'memory.changed' &&
        (f.payload as { progress?: { phase?: string } }).progress?.phase === 'reembed' &&
        socket.frames.indexOf(f) >= mark,
      30_000,
    );

    const config = JSON.parse(await readFile(join(product.home, 'hearth.json'), 'utf8'));
    expect(config.memory.embedder).toEqual({ kind: 'onnx', modelDir: join(product.home, 'models', 'tiny-encoder') });

    // The re-embed runs in the background; search answers once the vectors are the model's.
    let top: string | undefined;
    for (let attempt = 0; attempt < 100 && top !== 'memory/2026-11-27.md'; attempt++) {
      const status = (await socket.request('memory.status', {})).payload as {
        embedder: { id: string };
        reindex: { running: boolean };
      };
      if (status.embedder.id.startsWith('onnx:tiny-encoder@') && !status.reindex.running) {
        const found = await socket.request('memory.search', { query: 'chai' });
        top = (found.payload as { results: { path: string }[] }).results[0]?.path;
      }
      if (top !== 'memory/2026-11-27.md') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(top).toBe('memory/2026-11-27.md');
    const after = await socket.request('memory.model.list', {});
    expect((after.payload as { models: unknown[] }).models).toContainEqual(
      expect.objectContaining({ name: 'tiny-encoder', installed: true, active: true }),
    );
  });
});
