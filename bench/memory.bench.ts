// Memory engine benchmarks (issue 6): indexing throughput, hybrid search latency at 100k chunks,
// Dreaming over 30 days × 50 notes, and recall@5 on bench/fixtures/memory-qa.jsonl.
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lanceDbMemoryBackend } from '../extensions/memory-lancedb/index.js';
import { silentLogger } from '../src-main/base/logger.js';
import { runDreaming } from '../src-main/memory/dreaming/dreaming.js';
import type { Embedder } from '../src-main/memory/embedders/embedder.js';
import { createHashedEmbedder } from '../src-main/memory/embedders/hashed-embedder.js';
import { createOnnxEmbedder } from '../src-main/memory/embedders/onnx-embedder.js';
import { IndexVocabulary } from '../src-main/memory/index-vocabulary.js';
import type { MemoryChunkRow } from '../src-main/memory/memory-backend.js';
import { parseMemoryConfig } from '../src-main/memory/memory-config.js';
import { MemoryEngine } from '../src-main/memory/memory-engine.js';
import { toFtsText } from '../src-main/memory/text-tokens.js';
import { createHearthPaths } from '../src-main/paths/index.js';
import { createFakeClock } from '../src-main/testing/fake-clock.js';
import { type BenchResult, percentile } from './bench-result.js';

const here = dirname(fileURLToPath(import.meta.url));
const NOW = new Date(2026, 10, 30, 10).getTime();
const DAY = 86_400_000;
const WORDS =
  'project meeting budget coffee travel flight doctor dentist garden python rust deploy release invoice client design review lunch dinner gym running piano lesson school birthday gift paris berlin tokyo report deadline sprint bug fix database backup server laptop phone email contract lease rent car insurance tax family sister brother mother father friend weekend holiday hotel booking museum concert movie book recipe soup bread market'.split(
    ' ',
  );

function sentence(seed: number, words = 14): string {
  let state = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out.push(WORDS[state % WORDS.length]!);
  }
  return out.join(' ');
}

// A 5 000-word synthetic vocabulary drawn Zipf-like, so posting lists look like real notes
// (a few very common words, a long tail) rather than 60 words repeated 100 000 times.
const SYLLABLES = 'ka lo mi ne ru sa ti vo pe da gu ri ba no te fi zo la me ku'.split(' ');
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return `${word}${i % 7}`;
});

function realisticSentence(seed: number, words: number): string {
  let state = (seed * 2654435761) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const u = (state + 1) / 4294967297;
    out.push(i % 5 === 0 ? WORDS[state % WORDS.length]! : VOCABULARY[Math.min(4999, Math.floor(5000 * u ** 3))]!);
  }
  return out.join(' ');
}

function engineAt(home: string, search: Record<string, number> = {}, embedder: Embedder = createHashedEmbedder(384)) {
  const paths = createHearthPaths(home);
  return new MemoryEngine({
    agentId: 'main',
    workspaceDir: paths.workspaceDir('main'),
    dbDir: paths.memoryDbDir('main'),
    backend: lanceDbMemoryBackend,
    embedder,
    config: parseMemoryConfig({ search }),
    clock: createFakeClock(NOW),
    log: silentLogger,
  });
}

export async function indexThroughput(): Promise<BenchResult[]> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-bench-mem-'));
  const workspace = join(home, 'workspace', 'memory');
  await mkdir(workspace, { recursive: true });
  for (let file = 0; file < 100; file++) {
    const lines = Array.from({ length: 400 }, (_, i) => `- ${sentence(file * 1000 + i)}`);
    await writeFile(
      join(workspace, `2026-10-${String((file % 28) + 1).padStart(2, '0')}-f${file}.md`),
      `${lines.join('\n')}\n`,
    );
  }
  const engine = engineAt(home);
  await engine.open();
  const started = performance.now();
  await engine.sync();
  const seconds = (performance.now() - started) / 1000;
  const chunks = (await engine.status()).chunks;
  await engine.close();
  await rm(home, { recursive: true, force: true });
  return [
    {
      name: 'index throughput (offline embedder, LanceDB writes + FTS index)',
      value: chunks / seconds,
      unit: 'chunks/s',
      budget: '≥ 2000',
      note: `${chunks} chunks`,
    },
  ];
}

export async function search100k(): Promise<BenchResult[]> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-bench-mem-'));
  const paths = createHearthPaths(home);
  const embedder = createHashedEmbedder(384);
  const store = await lanceDbMemoryBackend.openStore({ dir: paths.memoryDbDir('main'), dimension: 384 });
  await store.open();
  const total = 100_000;
  const started = performance.now();
  for (let offset = 0; offset < total; offset += 10_000) {
    const texts = Array.from({ length: 10_000 }, (_, i) => realisticSentence(offset + i, 60));
    const vectors = await embedder.embed(texts);
    const rows: MemoryChunkRow[] = texts.map((text, i) => {
      const day = (offset + i) % 60;
      const date = new Date(NOW - day * DAY).toISOString().slice(0, 10);
      return {
        id: `c${offset + i}`,
        path: `memory/${date}.md`,
        scope: 'agent:main',
        agent: 'main',
        date,
        category: 'other',
        heading: '',
        startLine: i,
        endLine: i,
        text,
        ftsText: toFtsText(text),
        fileHash: 'bench',
        embedder: embedder.id,
        vector: vectors[i]!,
      };
    });
    await store.addRows(rows);
  }
  await store.maintainIndexes(true);
  // The indexer keeps the index's terms beside it (typo candidates, pruned expansions); rows
  // written straight to the store here get the same file.
  const vocabulary = new IndexVocabulary(paths.memoryDbDir('main'));
  vocabulary.clear();
  for (let offset = 0; offset < total; offset++) {
    const text = realisticSentence(offset, 60);
    vocabulary.addChunk(toFtsText(text), text);
  }
  await vocabulary.save();
  const buildSeconds = (performance.now() - started) / 1000;
  await store.close();

  const engine = engineAt(home);
  await engine.open();
  const scope = engine.defaultScope();
  const times: number[] = [];
  for (let i = 0; i < 220; i++) {
    // Queries a person types: words of the notes, one of them mistyped every third query.
    const words = realisticSentence(900_000 + i, 4).split(' ');
    if (i % 3 === 0) words[1] = `${words[1]!.slice(0, 2)}${words[1]!.slice(3)}`;
    const query = words.join(' ');
    const t = performance.now();
    await engine.search(query, { scope, record: false });
    if (i >= 20) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  await engine.close();
  await rm(home, { recursive: true, force: true });
  return [
    { name: 'hybrid search p50 @100k chunks', value: percentile(times, 50), unit: 'ms', budget: '≤ 20' },
    { name: 'hybrid search p99 @100k chunks', value: percentile(times, 99), unit: 'ms', budget: '≤ 60' },
    { name: 'build 100k-chunk index (embed + write + FTS + IVF)', value: buildSeconds, unit: 's' },
  ];
}

export async function dreaming30Days(): Promise<BenchResult[]> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-bench-mem-'));
  const paths = createHearthPaths(home);
  const workspace = paths.workspaceDir('main');
  await mkdir(join(workspace, 'memory', '.dreams'), { recursive: true });
  const recalls: string[] = [];
  for (let day = 0; day < 30; day++) {
    const date = new Date(NOW - day * DAY).toISOString().slice(0, 10);
    const notes = Array.from({ length: 50 }, (_, i) => `- [fact] ${sentence(day * 100 + i, 10)}`);
    await writeFile(join(workspace, 'memory', `${date}.md`), `${notes.join('\n')}\n`);
    for (let i = 0; i < 50; i += 5)
      for (let r = 0; r < 4; r++)
        recalls.push(
          JSON.stringify({
            ts: NOW,
            day: date,
            query: `q${r} ${i}`,
            path: `memory/${date}.md`,
            line: i + 1,
            text: notes[i]!.slice(9),
            score: 0.6 + r * 0.05,
          }),
        );
  }
  await appendFile(join(workspace, 'memory', '.dreams', 'recalls.jsonl'), `${recalls.join('\n')}\n`);
  const started = performance.now();
  const summary = await runDreaming(
    {
      workspaceDir: workspace,
      scope: { id: 'agent:main', root: '' },
      embedder: createHashedEmbedder(384),
      now: () => NOW,
      lock: { pid: process.pid, now: () => NOW, isAlive: () => false },
    },
    { apply: true },
  );
  const seconds = (performance.now() - started) / 1000;
  await rm(home, { recursive: true, force: true });
  return [
    {
      name: 'Dreaming 30 days × 50 notes, no model',
      value: seconds,
      unit: 's',
      budget: '≤ 10',
      note: `${summary.candidates.length} candidates, ${summary.promoted.length} promoted`,
    },
  ];
}

interface QaRow {
  query: string;
  kind: string;
  noteId: string;
  date: string;
  note: string;
  noteZh: string;
}

/**
 * The same pairs with a local ONNX model, when HEARTH_BENCH_ONNX_DIR points at one you downloaded
 * (e.g. all-MiniLM-L6-v2's model.onnx + tokenizer.json); skipped otherwise, since none ships.
 */
export async function retrievalQualityOnnx(): Promise<BenchResult[]> {
  const modelDir = process.env.HEARTH_BENCH_ONNX_DIR;
  if (!modelDir) return [];
  const embedder = await createOnnxEmbedder({ modelDir });
  return retrievalQuality(embedder, `onnx ${embedder.id}`);
}

export async function retrievalQuality(
  embedder: Embedder = createHashedEmbedder(384),
  embedderLabel = 'hashed',
): Promise<BenchResult[]> {
  const rows = (await readFile(join(here, 'fixtures', 'memory-qa.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as QaRow);
  const home = await mkdtemp(join(tmpdir(), 'hearth-bench-mem-'));
  const workspace = createHearthPaths(home).workspaceDir('main');
  await mkdir(join(workspace, 'memory'), { recursive: true });
  // Each note is one line of its day's file, among filler notes that compete for the top 5.
  const byDate = new Map<string, string[]>();
  const where = new Map<string, { path: string; line: number }>();
  for (const row of rows) {
    if (where.has(row.noteId)) continue;
    const lines = byDate.get(row.date) ?? [];
    for (let f = 0; f < 8; f++)
      lines.push(`- [other] ${sentence(row.noteId.length * 1000 + lines.length * 31 + f, 9)}`);
    lines.push(`- [fact] ${row.note} / ${row.noteZh}`);
    where.set(row.noteId, { path: `memory/${row.date}.md`, line: lines.length });
    byDate.set(row.date, lines);
  }
  for (const [date, lines] of byDate) await writeFile(join(workspace, 'memory', `${date}.md`), `${lines.join('\n')}\n`);
  const modes: [string, Record<string, number>][] = [
    ['BM25 only', { vectorWeight: 0, textWeight: 1 }],
    ['vector only', { vectorWeight: 1, textWeight: 0 }],
    ['hybrid 0.7/0.3', {}],
  ];
  const results: BenchResult[] = [];
  for (const [label, weights] of modes) {
    const engine = engineAt(home, { ...weights, minScore: 0, halfLifeDays: 36500 }, embedder);
    await engine.open();
    await engine.sync();
    const scope = engine.defaultScope();
    const hitsByKind = new Map<string, [number, number]>();
    let hits = 0;
    for (const row of rows) {
      const target = where.get(row.noteId)!;
      const found = await engine.search(row.query, { scope, k: 5, minScore: 0, record: false });
      const ok = found.some(
        (hit) =>
          hit.path === target.path &&
          hit.startLine <= target.line &&
          target.line <= hit.endLine &&
          hit.snippet.includes(row.note),
      );
      if (ok) hits++;
      const [h, n] = hitsByKind.get(row.kind) ?? [0, 0];
      hitsByKind.set(row.kind, [h + (ok ? 1 : 0), n + 1]);
    }
    await engine.close();
    const detail = [...hitsByKind.entries()].map(([kind, [h, n]]) => `${kind} ${(h / n).toFixed(2)}`).join(', ');
    results.push({
      name: `recall@5 ${label} (${rows.length} pairs${embedderLabel === 'hashed' ? '' : `, ${embedderLabel}`})`,
      value: hits / rows.length,
      unit: 'ratio',
      note: detail,
    });
  }
  await rm(home, { recursive: true, force: true });
  return results;
}

export async function run(): Promise<BenchResult[]> {
  return [
    ...(await indexThroughput()),
    ...(await retrievalQuality()),
    ...(await retrievalQualityOnnx()),
    ...(await dreaming30Days()),
    ...(await search100k()),
  ];
}
