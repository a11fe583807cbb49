import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import type { MemoryModelStatus } from '../../protocol/methods/memory.js';
import { readModelFiles, servedCatalogueEntry, startFakeModelHost } from '../../testing/fake-model-host.js';
import { createMemoryFixture, type MemoryFixture } from '../../testing/memory-test-fixture.js';
import { writeOnnxModelFixture } from '../../testing/onnx-model-fixture.js';
import type { MemoryEmbedderConfig } from '../memory-config.js';
import { createEmbedder } from './create-embedder.js';
import { LocalModels } from './local-models.js';
import { catalogueModelSchema, modelCatalogue } from './model-catalogue.js';
import { MANIFEST_FILE, readInstalledModel } from './model-install.js';

const FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'] as const;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A generated model served on loopback, and an installer pointed at it. */
async function setup() {
  const root = await mkdtemp(join(tmpdir(), 'hearth-model-install-'));
  const model = await writeOnnxModelFixture(join(root, 'source'));
  const host = await startFakeModelHost(await readModelFiles(model.dir, FILES));
  cleanups.push(() => host.close());
  const modelsDir = join(root, 'models');
  const switched: MemoryEmbedderConfig[] = [];
  let embedder: MemoryEmbedderConfig = { kind: 'hashed', dimension: 384 };
  const events: MemoryModelStatus[] = [];
  const models = (entry = servedCatalogueEntry(host, 'tiny-encoder', FILES)) => {
    const local = new LocalModels({
      modelsDir,
      catalogue: modelCatalogue([catalogueModelSchema.parse(entry)]),
      fetch: globalThis.fetch,
      now: () => 1_700_000_000_000,
      currentEmbedder: () => embedder,
      switchEmbedder: async (config) => {
        switched.push(config);
        embedder = config;
      },
      log: silentLogger,
    });
    const listening = local.onDidChange((status) => events.push(status));
    cleanups.push(async () => listening.dispose());
    return local;
  };
  return { root, host, modelsDir, switched, events, models, dimension: model.dimension };
}

const incomingFiles = async (modelsDir: string) =>
  readdir(join(modelsDir, '.incoming', 'tiny-encoder')).catch(() => [] as string[]);

describe('installing a local embedding model', () => {
  it('downloads, verifies every file, installs atomically, switches memory to it, and search works by meaning', async () => {
    const { host, modelsDir, switched, events, models } = await setup();
    const local = models();
    expect((await local.list()).find((m) => m.name === 'tiny-encoder')).toMatchObject({
      installed: false,
      active: false,
    });
    const done = await local.install('tiny-encoder');
    expect(done).toMatchObject({ state: 'installed', name: 'tiny-encoder', activated: true });

    // Progress: downloading with a known total, then verifying, switching, installed.
    const states = events.map((e) => e.state);
    expect(states[0]).toBe('downloading');
    expect(states).toContain('verifying');
    expect(states.at(-1)).toBe('installed');
    const total = FILES.reduce((sum, path) => sum + host.digest(path).size, 0);
    expect(events.find((e) => e.state === 'downloading' && e.total)?.total).toBe(total);
    const received = events.flatMap((e) => (e.received !== undefined ? [e.received] : []));
    expect(received).toEqual([...received].sort((a, b) => a - b));

    const dir = join(modelsDir, 'tiny-encoder');
    for (const path of FILES) expect(await readFile(join(dir, path))).toHaveLength(host.digest(path).size);
    expect(JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'))).toMatchObject({ name: 'tiny-encoder' });
    expect(await incomingFiles(modelsDir)).toEqual([]);
    expect(switched).toEqual([{ kind: 'onnx', modelDir: dir }]);
    expect((await local.list()).find((m) => m.name === 'tiny-encoder')).toMatchObject({
      installed: true,
      active: true,
    });

    // The installed model is the embedder: "chai" finds the matcha note, which shares no letters with it.
    const embedder = await createEmbedder(switched[0]!);
    const fixture: MemoryFixture = await createMemoryFixture({
      config: { search: { vectorWeight: 1, textWeight: 0, minScore: 0 } },
      embedder,
    });
    cleanups.push(async () => {
      await fixture.engine.close();
      await embedder.close?.();
    });
    await fixture.write('memory/2026-11-27.md', '- [preference] Matcha at the airport lounge\n');
    await fixture.write('memory/2026-11-28.md', '- [fact] The garden hose leaks near the tomatoes\n');
    await fixture.engine.open();
    await fixture.engine.sync();
    const hits = await fixture.engine.search('chai', { scope: fixture.engine.defaultScope(), record: false });
    expect(hits[0]?.path).toBe('memory/2026-11-27.md');
  });

  it('refuses a file whose checksum does not match: nothing installed, the bad bytes discarded, embedder kept', async () => {
    const { host, modelsDir, switched, models } = await setup();
    const entry = servedCatalogueEntry(host, 'tiny-encoder', FILES);
    // Same length, other bytes: what a mirror serving a different export looks like.
    const wrong = new Uint8Array(host.digest('model.onnx').size).fill(7);
    host.replace('model.onnx', wrong);
    const local = models(entry);
    await expect(local.install('tiny-encoder')).rejects.toThrow(
      /tiny-encoder was not installed: checksum mismatch for http:\/\/127\.0\.0\.1:\d+\/model\.onnx: expected sha256 [0-9a-f]{64}, got [0-9a-f]{64}; the download was discarded\. Memory search keeps using the offline lexical engine/,
    );
    expect(local.status()).toMatchObject({ state: 'failed', failure: 'checksum' });
    expect(await readInstalledModel(modelsDir, 'tiny-encoder')).toBeUndefined();
    expect(existsSync(join(modelsDir, 'tiny-encoder'))).toBe(false);
    expect(await incomingFiles(modelsDir)).not.toContain('model.onnx.part');
    expect(switched).toEqual([]);
  });

  it('resumes an interrupted download with a Range request, keeping the bytes it had', async () => {
    const { host, modelsDir, switched, models } = await setup();
    const local = models();
    host.cutNextAfter('model.onnx', 100);
    const drop = local.onDidChange((status) => {
      if ((status.received ?? 0) >= 100) host.dropStalled();
    });
    await expect(local.install('tiny-encoder')).rejects.toThrow(
      /could not download tiny-encoder: the download of .*model\.onnx was interrupted after 100 bytes .*; install again to resume\. You may be offline; memory search keeps using the offline lexical engine, and the bytes fetched so far are kept/,
    );
    // Half a model is not a model: nothing counts as installed, the part waits.
    expect(await readInstalledModel(modelsDir, 'tiny-encoder')).toBeUndefined();
    expect((await stat(join(modelsDir, '.incoming', 'tiny-encoder', 'model.onnx.part'))).size).toBe(100);
    expect((await local.list()).find((m) => m.name === 'tiny-encoder')).toMatchObject({ partialBytes: 100 });
    expect(switched).toEqual([]);
    drop.dispose();

    host.requests.length = 0;
    await local.install('tiny-encoder');
    expect(host.requests.find((r) => r.path === 'model.onnx')).toEqual({ path: 'model.onnx', range: 'bytes=100-' });
    expect(await readInstalledModel(modelsDir, 'tiny-encoder')).toBeDefined();
    expect(switched).toHaveLength(1);
  });

  it('starts a file over when the server ignores Range, and still gets the right bytes', async () => {
    const { host, modelsDir, models } = await setup();
    const local = models();
    host.cutNextAfter('model.onnx', 64);
    const drop = local.onDidChange((status) => {
      if ((status.received ?? 0) >= 64) host.dropStalled();
    });
    await expect(local.install('tiny-encoder')).rejects.toThrow(/interrupted after 64 bytes/);
    drop.dispose();
    host.setIgnoreRange(true);
    host.requests.length = 0;
    await local.install('tiny-encoder');
    expect(host.requests.find((r) => r.path === 'model.onnx')?.range).toBe('bytes=64-');
    const installed = await readInstalledModel(modelsDir, 'tiny-encoder');
    expect(installed?.files.find((f) => f.path === 'model.onnx')?.size).toBe(host.digest('model.onnx').size);
  });

  it('offline: says it could not reach the host and that memory stays on the lexical engine', async () => {
    const { host, modelsDir, switched, models } = await setup();
    const entry = servedCatalogueEntry(host, 'tiny-encoder', FILES);
    await host.close();
    const local = models(entry);
    await expect(local.install('tiny-encoder')).rejects.toThrow(
      /could not download tiny-encoder: could not reach 127\.0\.0\.1:\d+: fetch failed \(ECONNREFUSED\)\. You may be offline; memory search keeps using the offline lexical engine/,
    );
    expect(local.status()).toMatchObject({ state: 'failed', failure: 'unreachable' });
    expect(existsSync(join(modelsDir, 'tiny-encoder'))).toBe(false);
    expect(switched).toEqual([]);
  });

  it('an HTTP error, an unknown name and a second install while one runs are refused clearly', async () => {
    const { host, models } = await setup();
    const local = models();
    host.failWith('tokenizer.json', 404);
    await expect(local.install('tiny-encoder')).rejects.toThrow(
      /could not download tiny-encoder: http:\/\/127\.0\.0\.1:\d+\/tokenizer\.json answered HTTP 404 Not Found/,
    );
    expect(() => local.start('no-such-model')).toThrow(
      /unknown embedding model "no-such-model" \(available: all-MiniLM-L6-v2, paraphrase-multilingual-MiniLM-L12-v2, tiny-encoder\)/,
    );
    host.failWith('tokenizer.json', undefined);
    local.start('tiny-encoder');
    expect(() => local.start('tiny-encoder')).toThrow(/already installing tiny-encoder/);
    expect(await local.idle()).toMatchObject({ state: 'installed' });
  });

  it('reinstalling replaces the old folder whole; a folder without a manifest never counts', async () => {
    const { modelsDir, models } = await setup();
    const local = models();
    await local.install('tiny-encoder', { activate: false });
    await writeFile(join(modelsDir, 'tiny-encoder', 'stale.txt'), 'left by hand');
    await local.install('tiny-encoder', { activate: false });
    expect(existsSync(join(modelsDir, 'tiny-encoder', 'stale.txt'))).toBe(false);
    expect(await readdir(join(modelsDir, '.incoming'))).toEqual([]);
    await writeFile(join(modelsDir, 'tiny-encoder', MANIFEST_FILE), '{"name": "tiny');
    expect(await readInstalledModel(modelsDir, 'tiny-encoder')).toBeUndefined();
  });

  it('the catalogue pins every built-in file to a revision and a SHA-256', () => {
    for (const model of modelCatalogue()) {
      expect(catalogueModelSchema.parse(model)).toEqual(model);
      for (const file of model.files) {
        expect(file.url).toMatch(/^https:\/\/huggingface\.co\/[^/]+\/[^/]+\/resolve\/[0-9a-f]{40}\//);
        expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      }
    }
    expect(() =>
      catalogueModelSchema.parse({ name: 'x', files: [{ path: 'model.onnx', url: 'http://h/m', sha256: 'abc' }] }),
    ).toThrow(/SHA-256/);
    expect(() =>
      catalogueModelSchema.parse({
        name: 'x',
        files: [{ path: '../model.onnx', url: 'http://h/m', sha256: 'a'.repeat(64) }],
      }),
    ).toThrow(/relative path inside the model folder/);
  });
});
