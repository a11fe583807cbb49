// Retrieval evaluation (issue 13): `npm run eval:memory [-- --set dev|heldout|all] [--misses] [--json] [--offline-only]`.
// Indexes eval/memory/workspace/ (eleven weeks of one person's notes, see story.ts) and runs the
// query sets against three searchers: BM25 alone (our tokenizer, no expansion, no vectors, no
// recency), the offline engine exactly as `hearth memory search` runs it (default config), and
// the engine with the generated test ONNX model as its embedder.
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lanceDbMemoryBackend } from '../../extensions/memory-lancedb/index.js';
import { silentLogger } from '../../src-main/base/logger.js';
import type { Embedder } from '../../src-main/memory/embedders/embedder.js';
import { createHashedEmbedder } from '../../src-main/memory/embedders/hashed-embedder.js';
import { createOnnxEmbedder } from '../../src-main/memory/embedders/onnx-embedder.js';
import { parseMemoryConfig } from '../../src-main/memory/memory-config.js';
import { MemoryEngine } from '../../src-main/memory/memory-engine.js';
import { analyzeText } from '../../src-main/memory/text-tokens.js';
import { createHearthPaths } from '../../src-main/paths/index.js';
import { createFakeClock } from '../../src-main/testing/fake-clock.js';
import { writeOnnxModelFixture } from '../../src-main/testing/onnx-model-fixture.js';
import { EVAL_NOW } from './story.js';

const here = dirname(fileURLToPath(import.meta.url));
const K = 5;

export interface EvalQuery {
  kind: string;
  q: string;
  path: string;
  match: string;
  /** recent-vs-old: the note the answer supersedes (must rank below the answer, or not at all). */
  older?: { path: string; match: string };
}

interface Hit {
  path: string;
  startLine: number;
  endLine: number;
}

export type Searcher = (query: string) => Promise<Hit[]>;

export async function loadQueries(set: string): Promise<EvalQuery[]> {
  const files = set === 'all' ? ['dev', 'heldout'] : [set];
  const out: EvalQuery[] = [];
  for (const name of files) {
    const text = await readFile(join(here, `queries.${name}.jsonl`), 'utf8');
    for (const line of text.split('\n')) if (line.trim()) out.push(JSON.parse(line) as EvalQuery);
  }
  return out;
}

/** The 1-based line of the workspace file that holds `match` (a query whose target is missing is a bug in the set). */
async function targetLine(
  workspace: string,
  path: string,
  match: string,
  cache: Map<string, string[]>,
): Promise<number> {
  let lines = cache.get(path);
  if (!lines) {
    lines = (await readFile(join(workspace, path), 'utf8')).split('\n');
    cache.set(path, lines);
  }
  const index = lines.findIndex((line) => line.includes(match));
  if (index < 0) throw new Error(`eval set: "${match}" is not in ${path}`);
  return index + 1;
}

function rankOf(hits: Hit[], path: string, line: number): number {
  const index = hits.findIndex((hit) => hit.path === path && hit.startLine <= line && line <= hit.endLine);
  return index < 0 ? 0 : index + 1;
}

export interface KindScore {
  kind: string;
  queries: number;
  recall: number;
  mrr: number;
  /** recent-vs-old only: the newer note in the top 5 and above the older one. */
  newerFirst?: number;
}

export interface SearcherReport {
  label: string;
  kinds: KindScore[];
  overall: KindScore;
  misses: { kind: string; q: string; expected: string; got: string[] }[];
}

export async function evaluate(
  label: string,
  search: Searcher,
  queries: EvalQuery[],
  workspace: string,
): Promise<SearcherReport> {
  const cache = new Map<string, string[]>();
  const byKind = new Map<string, { n: number; hits: number; rr: number; newerFirst: number }>();
  const misses: SearcherReport['misses'] = [];
  for (const query of queries) {
    const hits = (await search(query.q)).slice(0, K);
    const rank = rankOf(hits, query.path, await targetLine(workspace, query.path, query.match, cache));
    const entry = byKind.get(query.kind) ?? { n: 0, hits: 0, rr: 0, newerFirst: 0 };
    entry.n++;
    if (rank > 0) {
      entry.hits++;
      entry.rr += 1 / rank;
    }
    let ok = rank > 0;
    if (query.older) {
      const olderRank = rankOf(
        hits,
        query.older.path,
        await targetLine(workspace, query.older.path, query.older.match, cache),
      );
      ok = rank > 0 && (olderRank === 0 || rank < olderRank);
      if (ok) entry.newerFirst++;
    }
    if (!ok)
      misses.push({
        kind: query.kind,
        q: query.q,
        expected: `${query.path} "${query.match}"`,
        got: hits.map((hit) => `${hit.path}:${hit.startLine}`),
      });
    byKind.set(query.kind, entry);
  }
  const kinds = [...byKind.entries()].map(([kind, entry]) => ({
    kind,
    queries: entry.n,
    recall: entry.hits / entry.n,
    mrr: entry.rr / entry.n,
    ...(kind === 'recent' ? { newerFirst: entry.newerFirst / entry.n } : {}),
  }));
  const total = queries.length;
  const overall = {
    kind: 'overall',
    queries: total,
    recall: kinds.reduce((sum, kind) => sum + kind.recall * kind.queries, 0) / total,
    mrr: kinds.reduce((sum, kind) => sum + kind.mrr * kind.queries, 0) / total,
  };
  return { label, kinds, overall, misses };
}

/** A temp HEARTH_HOME whose main workspace is a copy of the evaluation workspace. */
export async function evalHome(): Promise<{ home: string; workspace: string; cleanup(): Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-eval-memory-'));
  const workspace = createHearthPaths(home).workspaceDir('main');
  await cp(join(here, 'workspace'), workspace, { recursive: true });
  return { home, workspace, cleanup: () => rm(home, { recursive: true, force: true }) };
}

export async function openEngine(home: string, embedder: Embedder, config: unknown = {}): Promise<MemoryEngine> {
  const paths = createHearthPaths(home);
  const engine = new MemoryEngine({
    agentId: 'main',
    workspaceDir: paths.workspaceDir('main'),
    dbDir: paths.memoryDbDir('main'),
    backend: lanceDbMemoryBackend,
    embedder,
    config: parseMemoryConfig(config),
    clock: createFakeClock(EVAL_NOW),
    log: silentLogger,
  });
  await engine.open();
  await engine.sync();
  return engine;
}

const engineSearcher =
  (engine: MemoryEngine): Searcher =>
  (query) =>
    engine.search(query, { scope: engine.defaultScope(), k: K, record: false });

/** BM25 alone: the full-text index with the query's own terms, ranked by BM25 only. */
async function bm25Searcher(home: string, dimension: number): Promise<{ search: Searcher; close(): Promise<void> }> {
  const store = await lanceDbMemoryBackend.openStore({ dir: createHearthPaths(home).memoryDbDir('main'), dimension });
  await store.open();
  return {
    search: async (query) => {
      const { primary, secondary } = analyzeText(query);
      const hits = await store.textSearch([{ terms: [...new Set([...primary, ...secondary])], boost: 1 }], {
        scope: 'agent:main',
        limit: K,
      });
      return hits.map((hit) => hit.row);
    },
    close: () => store.close(),
  };
}

function table(reports: SearcherReport[]): string {
  const kinds = [...new Set(reports.flatMap((report) => report.kinds.map((kind) => kind.kind)))];
  const rows = [['kind', 'n', ...reports.flatMap((report) => [`${report.label} R@5`, 'MRR'])]];
  for (const kind of [...kinds, 'overall']) {
    const cells: string[] = [kind, ''];
    for (const report of reports) {
      const score = kind === 'overall' ? report.overall : report.kinds.find((entry) => entry.kind === kind);
      cells[1] = String(score?.queries ?? '');
      const recall = score ? score.recall.toFixed(2) : '–';
      const newer = score?.newerFirst !== undefined ? ` (newer first ${score.newerFirst.toFixed(2)})` : '';
      cells.push(recall + newer, score ? score.mrr.toFixed(2) : '–');
    }
    rows.push(cells);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')).join('\n');
}

export async function main(argv: string[]): Promise<void> {
  const set = argv.includes('--set') ? argv[argv.indexOf('--set') + 1]! : 'all';
  const queries = await loadQueries(set);
  const { home, workspace, cleanup } = await evalHome();
  const reports: SearcherReport[] = [];
  try {
    const offline = await openEngine(home, createHashedEmbedder(384));
    // `--offline-only` scores the offline engine alone: the quick loop while tuning ranking.
    const offlineOnly = argv.includes('--offline-only');
    if (!offlineOnly) {
      const bm25 = await bm25Searcher(home, 384);
      reports.push(await evaluate('BM25', bm25.search, queries, workspace));
      await bm25.close();
    }
    reports.push(await evaluate('offline', engineSearcher(offline), queries, workspace));
    await offline.close();
    if (offlineOnly) return print(argv, set, queries.length, reports);

    const modelDir = await mkdtemp(join(tmpdir(), 'hearth-eval-onnx-'));
    const fixture = await writeOnnxModelFixture(modelDir, { dimension: 32 });
    const onnx = await createOnnxEmbedder({ modelDir: fixture.dir });
    const onnxHome = await evalHome();
    try {
      const engine = await openEngine(onnxHome.home, onnx);
      reports.push(await evaluate('test-onnx', engineSearcher(engine), queries, workspace));
      await engine.close();
    } finally {
      await onnx.close();
      await onnxHome.cleanup();
      await rm(modelDir, { recursive: true, force: true });
    }
  } finally {
    await cleanup();
  }
  print(argv, set, queries.length, reports);
}

function print(argv: string[], set: string, queryCount: number, reports: SearcherReport[]): void {
  if (argv.includes('--json')) {
    console.log(JSON.stringify({ set, queries: queryCount, reports }));
    return;
  }
  console.log(`memory retrieval, query set "${set}" (${queryCount} queries), recall@${K} and MRR\n`);
  console.log(table(reports));
  if (argv.includes('--misses'))
    for (const report of reports.filter((report) => report.label === 'offline'))
      for (const miss of report.misses)
        console.log(`miss [${miss.kind}] ${miss.q} → want ${miss.expected}, got ${miss.got.join(' ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
