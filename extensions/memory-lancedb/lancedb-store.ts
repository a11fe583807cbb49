import { mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type * as Lance from '@lancedb/lancedb';
import type * as Arrow from 'apache-arrow';
import type {
  BackendFileEntry,
  BackendHit,
  BackendOpenReport,
  BackendQuery,
  MemoryChunkRow,
  MemoryIndexStore,
  MemoryIndexStoreOptions,
  TextQueryClause,
} from '../../src-main/plugins/sdk/memory.js';

// LanceDB is CommonJS and checks `instanceof` against its own (CommonJS) apache-arrow; the ESM
// build is a different set of classes, so tables built from it would be copied field by field.
let arrowModule: typeof Arrow | undefined;
/** Loaded on first use: the native LanceDB runtime and Arrow cost tens of MB an idle gateway need not pay. */
const arrowLib = (): typeof Arrow => {
  arrowModule ??= createRequire(import.meta.url)('apache-arrow') as typeof Arrow;
  return arrowModule;
};
let lanceModule: Promise<typeof Lance> | undefined;
const lance = (): Promise<typeof Lance> => {
  lanceModule ??= import('@lancedb/lancedb');
  return lanceModule;
};

const TABLE = 'chunks';
/** Below this many rows a flat scan is fast enough; above it an IVF index keeps search in budget. */
const VECTOR_INDEX_MIN_ROWS = 20_000;
/**
 * New rows are searchable at once (LanceDB scans rows its FTS index has not seen yet); they are
 * folded into the index once this many (or a quarter of the table) pile up, so small edits
 * never pay for an index merge while BM25 statistics stay those of the index.
 */
const FTS_UNINDEXED_MAX = 5_000;
/**
 * Up to this many rows the vector query is answered from a copy of the rows kept in memory
 * (≤ ~3 MB at 384 dimensions): the same flat scan LanceDB makes for an unindexed table, without
 * its fixed cost per query (3–5 ms of native work on 2 cores, measured at 6 rows). Bigger
 * tables, and any with an IVF index, are searched by LanceDB.
 */
const MEMORY_SCAN_MAX_ROWS = 2_000;

interface StoredRow {
  id: string;
  path: string;
  scope: string;
  agent: string;
  date: string;
  category: string;
  heading: string;
  start_line: number;
  end_line: number;
  text: string;
  fts: string;
  file_hash: string;
  embedder: string;
  vector: ArrayLike<number>;
}

/**
 * The table's scalar columns in order, each with the row field it holds: the one list the
 * schema, the Arrow batch, the read and `select` are made from. The vector column comes last.
 */
const COLUMNS = [
  { name: 'id', field: 'id', type: 'text' },
  { name: 'path', field: 'path', type: 'text' },
  { name: 'scope', field: 'scope', type: 'text' },
  { name: 'agent', field: 'agent', type: 'text' },
  { name: 'date', field: 'date', type: 'text' },
  { name: 'category', field: 'category', type: 'text' },
  { name: 'heading', field: 'heading', type: 'text' },
  { name: 'start_line', field: 'startLine', type: 'int' },
  { name: 'end_line', field: 'endLine', type: 'int' },
  { name: 'text', field: 'text', type: 'text' },
  { name: 'fts', field: 'ftsText', type: 'text' },
  { name: 'file_hash', field: 'fileHash', type: 'text' },
  { name: 'embedder', field: 'embedder', type: 'text' },
] as const satisfies readonly {
  name: Exclude<keyof StoredRow, 'vector'>;
  field: keyof MemoryChunkRow;
  type: 'text' | 'int';
}[];

const TEXT_COLUMNS = COLUMNS.map((column) => column.name);

function schemaFor(dimension: number): Arrow.Schema {
  const arrow = arrowLib();
  return new arrow.Schema([
    ...COLUMNS.map(
      (column) => new arrow.Field(column.name, column.type === 'int' ? new arrow.Int32() : new arrow.Utf8(), false),
    ),
    new arrow.Field(
      'vector',
      new arrow.FixedSizeList(dimension, new arrow.Field('item', new arrow.Float32(), true)),
      false,
    ),
  ]);
}

/**
 * LanceDB sizes its CPU runtime from the core count; with 2 cores its full-text index
 * builder deadlocks on large tables (measured here: FTS over 100k chunks never returns with
 * the default, finishes in ~12 s with 4 threads). The runtime reads LANCE_CPU_THREADS once,
 * on first use, so it is set before the first connection unless the user set it already.
 */
export function ensureLanceRuntimeThreads(env: Record<string, string | undefined>, cores: number): void {
  if (env.LANCE_CPU_THREADS === undefined) env.LANCE_CPU_THREADS = String(Math.max(4, cores));
  // LanceDB logs routine events ("will be created") as warnings on stderr; ours go to the log file.
  if (env.LANCEDB_LOG === undefined) env.LANCEDB_LOG = 'error';
}

/**
 * The engine hands over terms already tokenised (stems, `propfind.rs`, `€0.27`, Chinese words):
 * the index only splits on whitespace and folds accents, it must not cut or stem them again.
 */
const FTS_CONFIG = async () =>
  (await lance()).Index.fts({
    withPosition: false,
    baseTokenizer: 'whitespace',
    lowercase: false,
    stem: false,
    removeStopWords: false,
    asciiFolding: true,
    maxTokenLength: 64,
  });

/** Weighted clauses as one LanceDB query: a boolean OR of match queries, each with its boost. */
async function fullTextQuery(clauses: readonly TextQueryClause[]): Promise<Lance.FullTextQuery> {
  const { BooleanQuery, MatchQuery, Occur } = await lance();
  const matches = clauses.map(
    (clause) =>
      new MatchQuery(clause.terms.join(' '), 'fts', {
        boost: clause.boost,
        fuzziness: clause.fuzziness ?? 0,
        ...(clause.fuzziness ? { maxExpansions: 20, prefixLength: 1 } : {}),
      }),
  );
  return matches.length === 1 ? matches[0]! : new BooleanQuery(matches.map((match) => [Occur.Should, match]));
}

/**
 * Rows as one Arrow batch: the vectors go in as one flat Float32Array instead of 384 JS numbers
 * per row, which is most of the cost of writing through plain objects.
 */
function toArrow(rows: MemoryChunkRow[], dimension: number): Arrow.Table {
  const schema = schemaFor(dimension);
  const length = rows.length;
  const text = (pick: (row: MemoryChunkRow) => string) => {
    const data = arrowLib().vectorFromArray(rows.map(pick), new (arrowLib().Utf8)()).data;
    if (data.length !== 1) throw new Error('unexpected chunked string column');
    return data[0]!;
  };
  const int = (pick: (row: MemoryChunkRow) => number) =>
    arrowLib().makeData({ type: new (arrowLib().Int32)(), length, data: Int32Array.from(rows, pick) });
  const flat = new Float32Array(length * dimension);
  rows.forEach((row, index) => {
    if (row.vector.length !== dimension)
      throw new Error(`vector of ${row.path} has ${row.vector.length} dimensions, the index has ${dimension}`);
    flat.set(row.vector, index * dimension);
  });
  const vectorType = schema.fields[schema.fields.length - 1]!.type as Arrow.FixedSizeList<Arrow.Float32>;
  const vectors = arrowLib().makeData({
    type: vectorType,
    length,
    child: arrowLib().makeData({ type: new (arrowLib().Float32)(), length: length * dimension, data: flat }),
  });
  const children = [
    ...COLUMNS.map((column) =>
      column.type === 'int' ? int((row) => row[column.field] as number) : text((row) => row[column.field] as string),
    ),
    vectors,
  ];
  const batch = new (arrowLib().RecordBatch)(
    schema,
    arrowLib().makeData({ type: new (arrowLib().Struct)(schema.fields), length, children }),
  );
  return new (arrowLib().Table)([batch]);
}

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * LanceDB's flat `dot` search over rows in memory: the scope's rows by distance 1 − dot (in
 * float32, as LanceDB computes it), nearest first, the first row on a tie, and each hit's row
 * without its vector, as the LanceDB query selects it.
 */
export function scanNearest(rows: readonly MemoryChunkRow[], vector: Float32Array, query: BackendQuery): BackendHit[] {
  const scored: { row: MemoryChunkRow; distance: number; order: number }[] = [];
  rows.forEach((row, order) => {
    if (row.scope !== query.scope) return;
    const other = row.vector;
    let sum = 0;
    for (let i = 0; i < other.length; i++) sum += vector[i]! * other[i]!;
    scored.push({ row, distance: Math.fround(1 - Math.fround(sum)), order });
  });
  scored.sort((a, b) => a.distance - b.distance || a.order - b.order);
  return scored.slice(0, query.limit).map(({ row, distance }) => ({
    row: { ...row, vector: new Float32Array(0) },
    score: 1 - distance,
  }));
}

/**
 * One agent's chunks in one LanceDB table: vectors, the CJK-aware full-text column (BM25
 * through LanceDB's FTS index) and metadata. A table that cannot be opened or read is
 * treated as corrupt: the folder is dropped and the engine re-indexes from markdown.
 */
export function createLanceDbStore(options: MemoryIndexStoreOptions): MemoryIndexStore {
  ensureLanceRuntimeThreads(process.env, availableParallelism());
  let db: Lance.Connection | undefined;
  let table: Lance.Table | undefined;
  let vectorIndexed = false;
  /** Rows covered by the last IVF build; rows added since are scanned flat until the next rebuild. */
  let vectorIndexedRows = 0;
  /** The rows of a small table (vectors included), read once after each write; see MEMORY_SCAN_MAX_ROWS. */
  let scanned: Promise<MemoryChunkRow[] | undefined> | undefined;
  /** Bumped by every write: a copy read before it is not kept. */
  let generation = 0;
  const changed = () => {
    generation++;
    scanned = undefined;
  };
  const smallTableRows = (current: Lance.Table): Promise<MemoryChunkRow[] | undefined> => {
    if (scanned) return scanned;
    const at = generation;
    const reading = (async () => {
      if ((await current.countRows()) > MEMORY_SCAN_MAX_ROWS) return undefined;
      const rows = (await current
        .query()
        .select([...TEXT_COLUMNS, 'vector'])
        .toArray()) as StoredRow[];
      return rows.map(toRow);
    })();
    if (at === generation) scanned = reading;
    // A failed read is not kept: the next search asks LanceDB again.
    reading.catch(() => {
      if (scanned === reading) scanned = undefined;
    });
    return reading;
  };

  const ensureTable = async (): Promise<Lance.Table> => {
    if (table) return table;
    throw new Error('memory index is not open');
  };

  const createFresh = async () => {
    await mkdir(options.dir, { recursive: true });
    db = await (await lance()).connect(options.dir);
    changed();
    table = await db.createEmptyTable(TABLE, schemaFor(options.dimension), { mode: 'overwrite' });
    await table.createIndex('fts', { config: await FTS_CONFIG() });
    vectorIndexed = false;
    vectorIndexedRows = 0;
  };

  const toRow = (raw: StoredRow): MemoryChunkRow => {
    const row: Record<string, unknown> = {
      vector: raw.vector ? Float32Array.from(raw.vector as ArrayLike<number>) : new Float32Array(0),
    };
    for (const column of COLUMNS)
      row[column.field] = column.type === 'int' ? Number(raw[column.name]) : raw[column.name];
    return row as unknown as MemoryChunkRow;
  };

  return {
    async open(): Promise<BackendOpenReport> {
      try {
        await mkdir(options.dir, { recursive: true });
        db = await (await lance()).connect(options.dir);
        const names = await db.tableNames();
        if (!names.includes(TABLE)) {
          await createFresh();
          return { rows: 0 };
        }
        table = await db.openTable(TABLE);
        const schema = await table.schema();
        const vectorField = schema.fields.find((field) => field.name === 'vector');
        const listSize = (vectorField?.type as Arrow.FixedSizeList | undefined)?.listSize;
        if (listSize !== options.dimension) {
          await createFresh();
          return { rows: 0, recovered: `vector dimension changed (${listSize} → ${options.dimension}); index reset` };
        }
        // Reading every column of a row proves the data files are there and decodable.
        const rows = await table.countRows();
        await table.query().limit(1).toArray();
        const indices = await table.listIndices();
        if (!indices.some((index) => index.columns.includes('fts')))
          await table.createIndex('fts', { config: await FTS_CONFIG() });
        vectorIndexed = indices.some((index) => index.columns.includes('vector'));
        vectorIndexedRows = vectorIndexed ? rows : 0;
        return { rows };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        table = undefined;
        db = undefined;
        await rm(options.dir, { recursive: true, force: true });
        await createFresh();
        return { rows: 0, recovered: `memory index was unreadable (${reason.split('\n')[0]}); rebuilt empty` };
      }
    },

    async deleteFiles(paths) {
      if (paths.length === 0) return;
      const current = await ensureTable();
      changed();
      for (let i = 0; i < paths.length; i += 500)
        await current.delete(
          `path IN (${paths
            .slice(i, i + 500)
            .map(quote)
            .join(', ')})`,
        );
      changed();
    },

    async addRows(rows) {
      if (rows.length === 0) return;
      const current = await ensureTable();
      changed();
      try {
        await current.add(toArrow(rows, options.dimension));
      } finally {
        // A search that started during the write must not keep what it read before it.
        changed();
      }
    },

    async files(): Promise<BackendFileEntry[]> {
      const current = await ensureTable();
      const byPath = new Map<string, BackendFileEntry>();
      const rows = await current.query().select(['path', 'file_hash', 'embedder']).toArray();
      for (const row of rows as { path: string; file_hash: string; embedder: string }[]) {
        const entry = byPath.get(row.path);
        if (entry) entry.chunks++;
        else byPath.set(row.path, { path: row.path, fileHash: row.file_hash, embedder: row.embedder, chunks: 1 });
      }
      return [...byPath.values()];
    },

    async vectorSearch(vector, query: BackendQuery): Promise<BackendHit[]> {
      const current = await ensureTable();
      const small = vectorIndexed ? undefined : await smallTableRows(current);
      if (small) return scanNearest(small, vector, query);
      let search = current
        .vectorSearch(Array.from(vector))
        .distanceType('dot')
        .where(`scope = ${quote(query.scope)}`);
      if (vectorIndexed) search = search.nprobes(6);
      // Without the vector column: reading 40 vectors back from the data files was a third of a
      // search at 100k rows, and the engine needs a hit's vector only to score a text-only hit
      // (those come from textSearch, with vectors). _distance named: implicit projection warns.
      const rows = (await search
        .select([...TEXT_COLUMNS, '_distance'])
        .limit(query.limit)
        .toArray()) as (StoredRow & { _distance: number })[];
      // LanceDB's dot "distance" is 1 - dot; vectors are unit length so dot is cosine similarity.
      return rows.map((raw) => ({ row: toRow(raw), score: 1 - Number(raw._distance) }));
    },

    async textSearch(clauses, query: BackendQuery): Promise<BackendHit[]> {
      const usable = clauses.filter((clause) => clause.terms.length > 0);
      if (usable.length === 0) return [];
      const current = await ensureTable();
      const rows = (await current
        .query()
        .fullTextSearch(await fullTextQuery(usable))
        .where(`scope = ${quote(query.scope)}`)
        // With their vectors: a text hit outside the vector top-N still gets its true similarity.
        // _score named explicitly: LanceDB warns on every search when it is projected implicitly.
        .select([...TEXT_COLUMNS, 'vector', '_score'])
        .limit(query.limit)
        .toArray()) as (StoredRow & { _score: number })[];
      return rows.map((raw) => ({ row: toRow(raw), score: Number(raw._score) }));
    },

    async maintainIndexes(force = false) {
      const current = await ensureTable();
      const rows = await current.countRows();
      if (rows === 0) return;
      const stats = await current.indexStats('fts_idx');
      if (!stats) await current.createIndex('fts', { config: await FTS_CONFIG(), replace: true });
      else if (stats.numUnindexedRows > (force ? 0 : Math.min(FTS_UNINDEXED_MAX, rows * 0.25)))
        await current.optimize();
      // Rebuilding the IVF index costs seconds at 100k rows: only when a fifth of the rows are new.
      if (rows >= VECTOR_INDEX_MIN_ROWS && (!vectorIndexed || rows > vectorIndexedRows * 1.2)) {
        await current.createIndex('scope', { config: (await lance()).Index.bitmap(), replace: true });
        // ~2k vectors per partition: probing a few partitions stays in a few milliseconds at 100k rows.
        const partitions = Math.max(8, Math.round(rows / 2048));
        await current.createIndex('vector', {
          config: (await lance()).Index.ivfFlat({ numPartitions: partitions, distanceType: 'dot' }),
          replace: true,
        });
        vectorIndexed = true;
        vectorIndexedRows = rows;
      }
    },

    async count() {
      return (await ensureTable()).countRows();
    },

    async reset() {
      await createFresh();
    },

    async close() {
      changed();
      table?.close();
      db?.close();
      table = undefined;
      db = undefined;
    },
  };
}
