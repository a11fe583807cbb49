import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../testing/fake-clock.js';
import {
  type FakeModelHost,
  readModelFiles,
  servedCatalogueEntry,
  startFakeModelHost,
} from '../../testing/fake-model-host.js';
import { writeOnnxModelFixture } from '../../testing/onnx-model-fixture.js';
import { createTempHome } from '../../testing/temp-home.js';
import { createCliContext } from '../cli-context.js';
import { runCli } from '../run-cli.js';

const FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A HEARTH_HOME with two notes, a generated model served on loopback, and `hearth …` as the user runs it. */
async function setup(options: { serve?: boolean } = {}) {
  const { home, cleanup } = await createTempHome('hearth-cli-model-');
  cleanups.push(cleanup);
  const model = await writeOnnxModelFixture(join(home, 'source'));
  const host: FakeModelHost = await startFakeModelHost(await readModelFiles(model.dir, FILES));
  const entry = servedCatalogueEntry(host, 'tiny-encoder', FILES);
  if (options.serve === false) await host.close();
  else cleanups.push(() => host.close());
  await mkdir(join(home, 'workspace', 'memory'), { recursive: true });
  await writeFile(join(home, 'workspace', 'memory/2026-11-27.md'), '- [preference] Matcha at the airport lounge\n');
  await writeFile(
    join(home, 'workspace', 'memory/2026-11-28.md'),
    '- [fact] The garden hose leaks near the tomatoes\n',
  );
  await writeFile(
    join(home, 'hearth.json'),
    JSON.stringify({ memory: { models: [entry], search: { vectorWeight: 1, textWeight: 0, minScore: 0 } } }),
  );
  const out: string[] = [];
  const err: string[] = [];
  const context = createCliContext({
    env: { HEARTH_HOME: home, HEARTH_SECRET_STORE: 'file' },
    clock: createFakeClock(new Date(2026, 10, 30, 9).getTime()),
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => '',
  });
  const hearth = async (...args: string[]) => {
    out.length = 0;
    err.length = 0;
    const code = await runCli(args, context);
    return { code, stdout: out.join(''), stderr: err.join('') };
  };
  return { home, host, hearth };
}

describe('hearth memory model', () => {
  it('lists the catalogue, installs with progress on stderr, switches memory and re-embeds: search by meaning', async () => {
    const { home, hearth } = await setup();
    const listed = await hearth('memory', 'model', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^all-MiniLM-L6-v2\s+-\s+23\.7 MB/m);
    expect(listed.stdout).toMatch(/^tiny-encoder\s+-\s+0\.0 MB {2}test model served on loopback$/m);

    const installed = await hearth('memory', 'model', 'install', 'tiny-encoder');
    expect(installed.stderr).toMatch(/^downloading tiny-encoder: model\.onnx /m);
    expect(installed.stderr).toMatch(/^downloading tiny-encoder: tokenizer\.json /m);
    expect(installed.code, installed.stderr).toBe(0);
    const dir = join(home, 'models', 'tiny-encoder');
    expect(installed.stdout).toBe(
      `installed tiny-encoder in ${dir}\nmemory.embedder now uses tiny-encoder\nre-embedded 2 files of main\n`,
    );
    const config = JSON.parse(await readFile(join(home, 'hearth.json'), 'utf8'));
    expect(config.memory.embedder).toEqual({ kind: 'onnx', modelDir: dir });
    expect((await hearth('memory', 'model', 'list')).stdout).toMatch(/^tiny-encoder\s+active/m);

    expect((await hearth('memory', 'status')).stdout).toMatch(/embedder onnx:tiny-encoder@[0-9a-f]{12} \(16 dims\)/);
    const found = await hearth('memory', 'search', 'chai', '--json', '--k', '1');
    expect(JSON.parse(found.stdout).results[0]).toMatchObject({ path: 'memory/2026-11-27.md' });
  });

  it('offline: one line saying why and that memory keeps the lexical engine; hearth.json untouched', async () => {
    const { home, hearth } = await setup({ serve: false });
    const before = await readFile(join(home, 'hearth.json'), 'utf8');
    const result = await hearth('memory', 'model', 'install', 'tiny-encoder');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^hearth: could not download tiny-encoder: could not reach 127\.0\.0\.1:\d+: fetch failed \(ECONNREFUSED\)\. You may be offline; memory search keeps using the offline lexical engine, and the bytes fetched so far are kept for the next try\n$/,
    );
    expect(await readFile(join(home, 'hearth.json'), 'utf8')).toBe(before);
    expect(existsSync(join(home, 'models', 'tiny-encoder'))).toBe(false);
  });

  it('a checksum mismatch installs nothing and says which file', async () => {
    const { home, host, hearth } = await setup();
    host.replace('tokenizer.json', new Uint8Array(host.digest('tokenizer.json').size).fill(32));
    const result = await hearth('memory', 'model', 'install', 'tiny-encoder');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/hearth: tiny-encoder was not installed: checksum mismatch for .*\/tokenizer\.json/);
    expect(existsSync(join(home, 'models', 'tiny-encoder'))).toBe(false);
    expect(JSON.parse(await readFile(join(home, 'hearth.json'), 'utf8')).memory.embedder).toBeUndefined();
  });

  it('--no-activate installs without switching; an unknown name lists the ones there are', async () => {
    const { home, hearth } = await setup();
    const result = await hearth('memory', 'model', 'install', 'tiny-encoder', '--no-activate');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`installed tiny-encoder in ${join(home, 'models', 'tiny-encoder')}\n`);
    expect(JSON.parse(await readFile(join(home, 'hearth.json'), 'utf8')).memory.embedder).toBeUndefined();
    const unknown = await hearth('memory', 'model', 'install', 'gpt-embed-9000');
    expect(unknown.stderr).toBe(
      'hearth: unknown embedding model "gpt-embed-9000" (available: all-MiniLM-L6-v2, paraphrase-multilingual-MiniLM-L12-v2, tiny-encoder)\n',
    );
  });
});
