import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createHearthPaths } from '../../paths/index.js';
import { createSessionStore } from '../../sessions/index.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from '../../testing/fake-embeddings.js';
import { writeOnnxModelFixture } from '../../testing/onnx-model-fixture.js';
import { createTempHome } from '../../testing/temp-home.js';
import { createCliContext } from '../cli-context.js';
import { runCli } from '../run-cli.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temp HEARTH_HOME with two notes (and `hearth.json` when given); `hearth …` runs as the user would. */
async function setup(options: { config?: unknown } = {}) {
  const { home, cleanup } = await createTempHome('hearth-cli-memory-');
  cleanups.push(cleanup);
  const workspace = join(home, 'workspace');
  await mkdir(join(workspace, 'memory'), { recursive: true });
  await writeFile(join(workspace, 'MEMORY.md'), '# Memory\n\n- Allergic to peanuts\n');
  await writeFile(join(workspace, 'memory/2026-11-02.md'), '- 08:00 [preference] Likes climbing on Saturdays\n');
  const configure = (config: unknown) => writeFile(join(home, 'hearth.json'), JSON.stringify(config));
  if (options.config !== undefined) await configure(options.config);
  let stdin = '';
  const out: string[] = [];
  const err: string[] = [];
  const context = createCliContext({
    // The encrypted-file secret store: the same store the gateway opens when there is no keychain.
    env: { HEARTH_HOME: home, HEARTH_SECRET_STORE: 'file' },
    clock: createFakeClock(new Date(2026, 10, 30, 9).getTime()),
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
  });
  const hearth = async (args: string[], input = '') => {
    out.length = 0;
    err.length = 0;
    stdin = input;
    const code = await runCli(args, context);
    return { code, stdout: out.join(''), stderr: err.join('') };
  };
  /** `hearth memory …` that must succeed; its stdout. */
  const run = async (...args: string[]) => {
    const result = await hearth(['memory', ...args]);
    if (result.code !== 0) throw new Error(`hearth memory ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result.stdout;
  };
  /** `hearth memory …` that must fail; its one stderr line. */
  const fail = async (...args: string[]) => {
    const result = await hearth(['memory', ...args]);
    expect(result.code, `hearth memory ${args.join(' ')} should fail`).toBe(1);
    expect(result.stdout).toBe('');
    return result.stderr;
  };
  const indexDir = join(home, 'agents', 'main', 'memory.lance');
  return { home, hearth, run, fail, configure, indexDir };
}

async function fakeEmbeddings(options: { apiKey?: string } = {}): Promise<FakeEmbeddingsServer> {
  const server = await startFakeEmbeddingsServer({ dimension: 16, ...options });
  cleanups.push(() => server.close());
  return server;
}

/** An OpenAI-style provider embedder on the fake server, with no `dimension`: it is learned. */
const providerEmbedder = (server: FakeEmbeddingsServer) => ({
  memory: {
    embedder: {
      kind: 'provider',
      provider: 'openai',
      model: 'text-embedding-3-small',
      baseUrl: server.baseUrl,
      apiKeySecret: 'auth-profile:openai-embed',
    },
  },
});

describe('hearth memory', () => {
  it('indexes, then searches with --json in the documented shape', async () => {
    const { run } = await setup();
    expect(await run('index')).toMatch(/^indexed 2 files \(2 updated, 0 removed\), 2 chunks/);
    expect(await run('index')).toMatch(/^indexed 2 files \(0 updated, 0 removed\), 2 chunks/);
    const json = JSON.parse(await run('search', 'climbing weekend', '--json', '--k', '3'));
    expect(Object.keys(json)).toEqual(['results']);
    expect(json.results[0]).toEqual({
      path: 'memory/2026-11-02.md',
      startLine: 1,
      endLine: 1,
      score: expect.any(Number),
      snippet: '- 08:00 [preference] Likes climbing on Saturdays',
    });
    expect(Object.keys(json.results[0])).toEqual(['path', 'startLine', 'endLine', 'score', 'snippet']);
    // A bullet is a unit of its own: the hit is the allergy line, not the whole file.
    expect(await run('search', 'peanut allergy')).toContain('MEMORY.md:3-3');
  });

  it('says how far a long index has got, on stderr, keeping stdout for the summary', async () => {
    const { home, hearth } = await setup();
    for (let day = 1; day <= 28; day++)
      await writeFile(join(home, 'workspace', `memory/2026-10-${String(day).padStart(2, '0')}.md`), `- note ${day}\n`);
    const result = await hearth(['memory', 'index']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^indexed 30 files \(30 updated, 0 removed\)/);
    const lines = result.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.length).toBeLessThanOrEqual(11);
    expect(lines.at(-1)).toBe('indexing main: 30/30 files');
  });

  it('indexes and searches with a local ONNX model from the user’s folder', async () => {
    const { home, run, configure } = await setup();
    const model = await writeOnnxModelFixture(join(home, 'models', 'tiny-encoder'));
    await configure({
      memory: { embedder: { kind: 'onnx', modelDir: model.dir }, search: { vectorWeight: 1, textWeight: 0 } },
    });
    await writeFile(join(home, 'workspace', 'memory/2026-11-03.md'), '- [preference] Matcha before the flight\n');
    await run('index');
    expect(await run('status')).toMatch(/embedder onnx:tiny-encoder@[0-9a-f]{12} \(16 dims\)/);
    // "chai" appears in no note: only the model's vectors lead to the matcha note.
    const json = JSON.parse(await run('search', 'chai', '--json', '--k', '1'));
    expect(json.results[0]).toMatchObject({ path: 'memory/2026-11-03.md' });
  });

  it('shows status and previews promotion, explaining signals', async () => {
    const { run } = await setup();
    expect(await run('status', '--deep')).toMatch(
      /agent main: 2 files, \d+ chunks, backend memory-lancedb, embedder hashed-v2:384 \(384 dims\)/,
    );
    expect(await run('promote')).toContain('(preview; --apply to write MEMORY.md)');
    expect(await run('promote-explain', 'Likes climbing on Saturdays')).toContain('has not been recalled');
  });

  it('promote --apply files the last day of conversations first, like the nightly run; a preview writes nothing', async () => {
    const { home, run } = await setup();
    const now = new Date(2026, 10, 30, 9).getTime();
    const sessions = createSessionStore({
      paths: createHearthPaths(home),
      clock: createFakeClock(now),
      log: silentLogger,
    });
    const session = await sessions.resolve('main', 'agent:main:main');
    await sessions.append('main', session.sessionId, [
      {
        kind: 'user',
        id: 'u1',
        ts: now - 3_600_000,
        text: 'Remember that my locker code is 5521, token sk-live-abcdef1234567890XYZ',
      },
      { kind: 'user', id: 'u2', ts: now - 3_000_000, text: 'ok thanks' },
    ]);
    await sessions.sync('main', session.sessionId);
    const today = join(home, 'workspace', 'memory', '2026-11-30.md');

    await run('promote');
    expect(existsSync(today)).toBe(false);
    await run('promote', '--apply');
    const filed = await readFile(today, 'utf8');
    expect(filed).toContain('locker code is 5521');
    expect(filed).not.toContain('sk-live-abcdef1234567890XYZ');
    expect(filed).not.toContain('ok thanks');
    await run('promote', '--apply');
    expect((await readFile(today, 'utf8')).match(/locker code/g)).toHaveLength(1);
  });

  it('rejects bad flags with a one-line error', async () => {
    const { fail } = await setup();
    expect(await fail('search', 'x', '--k', 'lots')).toBe('hearth: --k must be an integer from 1 to 100, got lots\n');
    expect(await fail('status', '--agent', '../etc')).toBe('hearth: invalid --agent: ../etc\n');
  });

  it('in per-user scope, asks whose memory and searches only that user', async () => {
    const { home, run, fail } = await setup({
      config: { memory: { scope: 'per-user', identityLinks: { ana: ['telegram:7'] } } },
    });
    await mkdir(join(home, 'workspace/users/ana/memory'), { recursive: true });
    await writeFile(join(home, 'workspace/users/ana/memory/2026-11-20.md'), '- Ana keeps bees on the roof\n');
    expect(await fail('search', 'bees')).toBe('hearth: memory.scope is per-user: pass --user <account>\n');
    const json = JSON.parse(await run('search', 'bees on the roof', '--user', 'telegram:7', '--json'));
    expect(json.results.map((r: { path: string }) => r.path)).toEqual(['users/ana/memory/2026-11-20.md']);
    const other = JSON.parse(await run('search', 'bees on the roof', '--user', 'telegram:8', '--json'));
    expect(other.results).toEqual([]);
  });
});

describe('hearth memory uses the backend in plugins.slots.memory, as the gateway does', () => {
  it('"none": every command says memory is off, exits 1 and touches no index', async () => {
    const { fail, indexDir } = await setup({ config: { plugins: { slots: { memory: 'none' } } } });
    for (const args of [
      ['status'],
      ['index'],
      ['search', 'climbing'],
      ['promote'],
      ['promote-explain', 'Likes climbing on Saturdays'],
    ])
      expect(await fail(...args)).toBe('hearth: memory is off (plugins.slots.memory is "none")\n');
    expect(existsSync(indexDir)).toBe(false);
  });

  it('a backend no plugin provides: names it and the available ones', async () => {
    const { fail, indexDir } = await setup({ config: { plugins: { slots: { memory: 'memory-acme' } } } });
    expect(await fail('status')).toBe(
      'hearth: plugins.slots.memory is "memory-acme", but no plugin provides it (available: memory-lancedb)\n',
    );
    expect(await fail('search', 'climbing')).toContain('"memory-acme"');
    expect(existsSync(indexDir)).toBe(false);
  });

  it('the default backend turned off by plugins.deny: says why it is missing', async () => {
    const { fail } = await setup({ config: { plugins: { deny: ['memory-lancedb'] } } });
    expect(await fail('index')).toBe(
      'hearth: plugins.slots.memory is "memory-lancedb", but no plugin provides it (available: none); plugin memory-lancedb was skipped: denied by plugins.deny\n',
    );
  });

  it("a user plugin's backend named in the slot is the one that indexes and searches", async () => {
    const { home, run, indexDir } = await setup({ config: { plugins: { slots: { memory: 'memory-notes' } } } });
    await writeUserPlugin(home, 'memory-notes', IN_MEMORY_BACKEND_PLUGIN);
    expect(await run('status')).toMatch(/^agent main: 2 files, 2 chunks, backend memory-notes, embedder hashed-v2:384/);
    const json = JSON.parse(await run('search', 'climbing on Saturdays', '--json'));
    expect(json.results[0].path).toBe('memory/2026-11-02.md');
    // No LanceDB table was made: the slot, not a hard-coded default, picked the backend.
    expect(existsSync(join(indexDir, 'chunks.lance'))).toBe(false);
  });
});

describe('hearth memory with a provider embedder (API key from the secret store)', () => {
  it('reads the key stored with `hearth auth set` and indexes and searches with it', async () => {
    const server = await fakeEmbeddings({ apiKey: 'sk-embed' });
    const { hearth, run } = await setup({ config: providerEmbedder(server) });
    expect((await hearth(['auth', 'set', 'openai-embed', '--provider', 'openai'], 'sk-embed\n')).code).toBe(0);

    expect(await run('index')).toMatch(/^indexed 2 files \(\d+ updated, 0 removed\), 2 chunks/);
    // The fake's vectors are letter counts: good enough to find a note by its own words.
    const json = JSON.parse(await run('search', 'Likes climbing on Saturdays', '--json'));
    expect(json.results.map((result: { path: string }) => result.path)).toContain('memory/2026-11-02.md');
    expect(await run('status')).toContain('backend memory-lancedb, embedder openai:text-embedding-3-small (16 dims)');
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((request) => request.authorization === 'Bearer sk-embed')).toBe(true);
  });

  it('without the secret: a clear error naming it, no request sent, nothing on disk', async () => {
    const server = await fakeEmbeddings({ apiKey: 'sk-embed' });
    const { fail, indexDir } = await setup({ config: providerEmbedder(server) });
    const expected =
      'hearth: memory.embedder.apiKeySecret is "auth-profile:openai-embed", but the secret store (encrypted-file) has no such entry; store the key with: hearth auth set openai-embed --provider <provider> (key on stdin)\n';
    expect(await fail('index')).toBe(expected);
    expect(await fail('search', 'climbing', '--json')).toBe(expected);
    expect(server.requests).toEqual([]);
    expect(existsSync(indexDir)).toBe(false);
  });
});

describe('hearth memory with a provider embedder that has no configured dimension', () => {
  it('learns the dimension with one short probe before creating a fresh table', async () => {
    const server = await fakeEmbeddings();
    const { hearth, run } = await setup({ config: providerEmbedder(server) });
    await hearth(['auth', 'set', 'openai-embed', '--provider', 'openai'], 'sk-any');
    expect(await run('index')).toMatch(/^indexed 2 files/);
    // First the probe (one text), then the notes.
    expect(server.requests[0]!.input).toEqual(['dimension probe']);
    expect(server.requests.slice(1).flatMap((request) => request.input)).toContainEqual(
      expect.stringContaining('Likes climbing on Saturdays'),
    );
    expect(await run('status')).toContain('embedder openai:text-embedding-3-small (16 dims)');
  });

  it('a provider that fails the probe: an error naming provider and model, nothing half-written', async () => {
    const server = await fakeEmbeddings({ apiKey: 'sk-right' });
    const { hearth, fail, indexDir } = await setup({ config: providerEmbedder(server) });
    await hearth(['auth', 'set', 'openai-embed', '--provider', 'openai'], 'sk-wrong');
    expect(await fail('index')).toBe(
      'hearth: could not learn the vector dimension of openai:text-embedding-3-small: openai embeddings (text-embedding-3-small) failed: Incorrect API key provided\n',
    );
    expect(server.requests).toHaveLength(1);
    expect(existsSync(indexDir)).toBe(false);
  });

  it('an index made by another embedder is reset and re-embedded with the learned dimension', async () => {
    const server = await fakeEmbeddings();
    const { hearth, run, configure } = await setup();
    expect(await run('status')).toContain('embedder hashed-v2:384 (384 dims)');
    await configure(providerEmbedder(server));
    await hearth(['auth', 'set', 'openai-embed', '--provider', 'openai'], 'sk-any');
    const status = await run('status');
    expect(status).toContain(
      '2 files, 2 chunks, backend memory-lancedb, embedder openai:text-embedding-3-small (16 dims)',
    );
    expect(status).toContain('recovered: vector dimension changed (384 → 16); index reset');
    const json = JSON.parse(await run('search', 'peanuts', '--json'));
    expect(json.results[0].path).toBe('MEMORY.md');
    // Back to the hashed embedder: the table is rebuilt at 384 again, nothing stale is searched.
    await configure({});
    expect(await run('status')).toContain('recovered: vector dimension changed (16 → 384); index reset');
  });
});

async function writeUserPlugin(home: string, id: string, source: string): Promise<void> {
  const dir = join(home, 'extensions', id);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'hearth.plugin.json'), JSON.stringify({ id, main: 'index.js', kinds: ['memory'] }));
  await writeFile(join(dir, 'index.js'), source);
  // The loader refuses group- or world-writable plugin files; do not depend on the umask.
  await chmod(dir, 0o755);
  await chmod(join(dir, 'hearth.plugin.json'), 0o644);
  await chmod(join(dir, 'index.js'), 0o644);
}

/** A user plugin whose backend keeps rows in memory: vector search only, enough to show it is used. */
const IN_MEMORY_BACKEND_PLUGIN = `
const dot = (a, b) => a.reduce((sum, value, i) => sum + value * b[i], 0);
export default {
  id: 'memory-notes',
  register(api) {
    api.registerMemoryBackend({
      id: 'memory-notes',
      create: () => ({
        id: 'memory-notes',
        async openStore() {
          let rows = [];
          return {
            open: async () => ({ rows: 0 }),
            deleteFiles: async (paths) => { rows = rows.filter((row) => !paths.includes(row.path)); },
            addRows: async (added) => { rows.push(...added); },
            files: async () => {
              const byPath = new Map();
              for (const row of rows) {
                const entry = byPath.get(row.path);
                if (entry) entry.chunks += 1;
                else byPath.set(row.path, { path: row.path, fileHash: row.fileHash, embedder: row.embedder, chunks: 1 });
              }
              return [...byPath.values()];
            },
            vectorSearch: async (vector, query) =>
              rows
                .filter((row) => row.scope === query.scope)
                .map((row) => ({ row, score: dot(vector, row.vector) }))
                .sort((a, b) => b.score - a.score)
                .slice(0, query.limit),
            textSearch: async () => [],
            maintainIndexes: async () => {},
            count: async () => rows.length,
            reset: async () => { rows = []; },
            close: async () => {},
          };
        },
      }),
    });
  },
};
`;
