/**
 * The storage seam a memory backend plugin implements (`memory-lancedb` is the default).
 * The engine owns chunking, embedding, fusion and ranking; a backend only stores rows and
 * answers two primitive queries, so swapping backends never changes what users get ranked.
 */

/** One indexed chunk as stored. Paths are workspace-relative with forward slashes. */
export interface MemoryChunkRow {
  id: string;
  path: string;
  /** `agent:<id>` or `user:<id>`: searches never cross it. */
  scope: string;
  agent: string;
  /** YYYY-MM-DD for dated daily notes, '' for evergreen files. */
  date: string;
  category: string;
  heading: string;
  startLine: number;
  endLine: number;
  text: string;
  /** The chunk as full-text terms, space-separated (`text-tokens.ts`), with its date and heading. */
  ftsText: string;
  /** Hash of the whole file the chunk came from, to skip unchanged files. */
  fileHash: string;
  embedder: string;
  vector: Float32Array;
}

export interface BackendHit {
  row: MemoryChunkRow;
  /** Cosine similarity for vector hits, raw BM25 for text hits. */
  score: number;
}

/**
 * One part of a full-text query: documents matching any of `terms` score BM25 × `boost`
 * (clauses add up). `fuzziness` 1 or 2 also matches index terms within that edit distance.
 * Terms are already in the index's form (see `text-tokens.ts`): split them on spaces only.
 */
export interface TextQueryClause {
  terms: string[];
  boost: number;
  fuzziness?: 1 | 2;
}

export interface BackendQuery {
  scope: string;
  limit: number;
}

export interface BackendFileEntry {
  path: string;
  fileHash: string;
  embedder: string;
  chunks: number;
}

/** What the backend found when it opened; a corrupt store is reported, not thrown. */
export interface BackendOpenReport {
  rows: number;
  /** Set when the stored index could not be read and was reset (the engine re-indexes from markdown). */
  recovered?: string;
}

export interface MemoryIndexStore {
  open(): Promise<BackendOpenReport>;
  /** Removes every chunk of these paths (one write). */
  deleteFiles(paths: string[]): Promise<void>;
  /** Appends rows (a file is re-indexed as deleteFile + addRows in batches, so huge files stream). */
  addRows(rows: MemoryChunkRow[]): Promise<void>;
  files(): Promise<BackendFileEntry[]>;
  /** Nearest rows; their `vector` may be empty (the engine scores by the hit's score and the text). */
  vectorSearch(vector: Float32Array, query: BackendQuery): Promise<BackendHit[]>;
  /** BM25 rows, with their vectors: a text-only hit is scored against the query vector. */
  textSearch(clauses: readonly TextQueryClause[], query: BackendQuery): Promise<BackendHit[]>;
  /**
   * Folds recent writes into the indexes when enough have piled up (`force`: always).
   * Writes are searchable before this; it keeps search fast as the table grows.
   */
  maintainIndexes(force?: boolean): Promise<void>;
  count(): Promise<number>;
  /** Drops everything (dimension change, corruption). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface MemoryIndexStoreOptions {
  /** Folder of this agent's index (`paths.memoryDbDir(agentId)`). */
  dir: string;
  dimension: number;
}

/** What a memory backend plugin contributes. */
export interface MemoryBackend {
  id: string;
  openStore(options: MemoryIndexStoreOptions): Promise<MemoryIndexStore>;
}
