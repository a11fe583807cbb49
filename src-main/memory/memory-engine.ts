import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import { type MemorySearchHit, OWNER_USER_ID } from '../protocol/methods/memory.js';
import { type CaptureDecision, type CaptureInput, shouldCapture } from './capture.js';
import { crossLanguageSubject } from './cross-language.js';
import type { Embedder } from './embedders/embedder.js';
import { ensureEmbedderDimension } from './embedders/embedder-dimension.js';
import { rankHybrid } from './hybrid-ranking.js';
import { IndexVocabulary } from './index-vocabulary.js';
import type { BackendOpenReport, MemoryBackend, MemoryChunkRow, MemoryIndexStore } from './memory-backend.js';
import type { MemoryConfig } from './memory-config.js';
import { appendMemoryFile, dailyPath, listMemoryFiles, localDate, writeMemoryFile } from './memory-files.js';
import { type IndexProgress, type IndexReport, MemoryIndexer, SEARCH_TERMS_VERSION } from './memory-index.js';
import { agentScope, type MemoryScope, resolveScope } from './memory-scope.js';
import { bestLine } from './note-lines.js';
import {
  buildTextQuery,
  conceptCredits,
  coverageOfCredits,
  type Lexicons,
  matchedOfCredits,
  sharedLexicons,
  weightsOfCredits,
} from './query-expansion.js';
import { recordRecalls } from './recall-log.js';
import { redactSecrets } from './redact-secrets.js';

/** A search hit as the wire carries it (the protocol's shape is the one definition). */
export type MemorySearchResult = MemorySearchHit;

export interface MemorySearchOptions {
  scope: MemoryScope;
  k?: number;
  minScore?: number;
  /** Record hits for Dreaming (searches by the model and recall do; UI previews need not). */
  record?: boolean;
  signal?: AbortSignal;
}

export interface MemoryStatus {
  agentId: string;
  backend: string;
  embedder: { id: string; dimension: number };
  files: number;
  chunks: number;
  reindex: { running: boolean; phase?: IndexProgress['phase']; done: number; total: number };
  recovered?: string;
  issues: IndexReport['issues'];
  lastSync?: { at: number; indexed: number; removed: number };
  scope: MemoryConfig['scope'];
  ownerFolder?: string;
}

export interface MemoryEngineDeps {
  agentId: string;
  workspaceDir: string;
  dbDir: string;
  backend: MemoryBackend;
  embedder: Embedder;
  config: MemoryConfig;
  /** This agent's own `memory.scope` (agents.list[].memory.scope), read on each use; undefined: config's. */
  scope?(): MemoryConfig['scope'] | undefined;
  clock: Clock;
  log: Logger;
  onProgress?(progress: IndexProgress): void;
  /** An index run finished: what search finds now matches the files (on open, after an edit, a promotion). */
  onSynced?(report: IndexReport): void;
  /** WordNet and CC-CEDICT for query expansion (default: the shipped ones, loaded on first search). */
  lexicons?: Lexicons;
  /** Off: the query is matched as written (the evaluation's BM25 baseline). */
  expandQueries?: boolean;
}

/**
 * The fusion weights for an embedder, unless config sets them. A model's vectors carry meaning
 * the words do not, so they lead (0.7); the hashed embedder's vectors are the same words hashed,
 * so there the full-text side (with its stemming, typo, synonym and translation terms) leads.
 */
export function searchWeightsFor(
  embedderId: string,
  settings: { vectorWeight?: number; textWeight?: number },
): { vectorWeight: number; textWeight: number } {
  const lexical = embedderId.startsWith('hashed-');
  return {
    vectorWeight: settings.vectorWeight ?? (lexical ? 0.3 : 0.7),
    textWeight: settings.textWeight ?? (lexical ? 0.7 : 0.3),
  };
}

/** One agent's memory: files ⇄ index, hybrid search, capture landing spot. */
export class MemoryEngine {
  private store: MemoryIndexStore | undefined;
  private indexer: MemoryIndexer | undefined;
  private openReport: BackendOpenReport | undefined;
  private syncing: Promise<IndexReport> | undefined;
  private pendingSync = false;
  private progress: MemoryStatus['reindex'] = { running: false, done: 0, total: 0 };
  private lastSync: MemoryStatus['lastSync'];

  private readonly vocabulary: IndexVocabulary;

  constructor(readonly deps: MemoryEngineDeps) {
    this.vocabulary = new IndexVocabulary(deps.dbDir);
  }

  get agentId(): string {
    return this.deps.agentId;
  }

  get workspaceDir(): string {
    return this.deps.workspaceDir;
  }

  get config(): MemoryConfig {
    return this.deps.config;
  }

  /** Opens the index; a corrupt or half-written one is rebuilt from the markdown files. */
  async open(): Promise<BackendOpenReport & { needsSync: boolean }> {
    const { backend, dbDir, embedder } = this.deps;
    // The table's vector size is fixed at creation: learn it first (one probe request for a
    // provider without a configured dimension), so a failing provider writes nothing to disk.
    const dimension = await ensureEmbedderDimension(embedder);
    this.store = await backend.openStore({ dir: dbDir, dimension });
    this.openReport = await this.store.open();
    this.indexer = new MemoryIndexer({ ...this.deps, store: this.store, vocabulary: this.vocabulary });
    let meta = await this.indexer.readMeta();
    if (meta && meta.terms !== SEARCH_TERMS_VERSION && !this.openReport.recovered) {
      // The full-text column and its tokenizer changed: rebuild from the markdown files.
      await this.store.reset();
      await this.indexer.dropMeta();
      meta = undefined;
      this.openReport = { rows: 0, recovered: 'search terms changed in this version; index rebuilt from the notes' };
    }
    await this.vocabulary.load();
    // An empty index has a known, empty vocabulary; rows without a vocabulary file leave it
    // unknown (typos then go to the index's own fuzzy matching) until every file is rewritten.
    if (this.openReport.rows === 0) this.vocabulary.clear();
    if (this.openReport.recovered) this.deps.log.warn('memory index rebuilt', { reason: this.openReport.recovered });
    const needsSync = !(meta?.complete && meta.embedder === embedder.id) || Boolean(this.openReport.recovered);
    if (meta && !meta.complete && !this.openReport.recovered)
      this.openReport.recovered = 'previous indexing did not finish; re-checking every file';
    return { ...this.openReport, needsSync };
  }

  /** Brings the index up to date. Concurrent callers share one run; a request during a run queues one more. */
  sync(options: { force?: boolean } = {}): Promise<IndexReport> {
    if (this.syncing) {
      this.pendingSync = true;
      return this.syncing;
    }
    const indexer = this.requireIndexer();
    this.progress = { running: true, done: 0, total: 0 };
    const run = indexer
      .sync({
        force: options.force,
        onProgress: (progress) => {
          this.progress = { running: true, phase: progress.phase, done: progress.done, total: progress.total };
          this.deps.onProgress?.(progress);
        },
      })
      .then((report) => {
        this.lastSync = { at: this.deps.clock.now(), indexed: report.indexed, removed: report.removed };
        this.deps.onSynced?.(report);
        return report;
      })
      .finally(() => {
        this.progress = { ...this.progress, running: false };
        this.syncing = undefined;
        if (this.pendingSync) {
          this.pendingSync = false;
          void this.sync().catch((error) => this.deps.log.error('memory re-index failed', { error: String(error) }));
        }
      });
    this.syncing = run;
    return run;
  }

  /** Resolves when no sync is running or queued (tests and the CLI wait on it). */
  async idle(): Promise<void> {
    while (this.syncing) await this.syncing.catch(() => undefined);
  }

  /** Folds all recent writes into the search indexes now (otherwise done once enough pile up). */
  async maintainIndexes(): Promise<void> {
    await this.idle();
    await this.requireStore().maintainIndexes(true);
  }

  scopeFor(account?: string): MemoryScope {
    return resolveScope(this.deps.agentId, { ...this.deps.config, scope: this.scopeSetting() }, account);
  }

  private scopeSetting(): MemoryConfig['scope'] {
    return this.deps.scope?.() ?? this.deps.config.scope;
  }

  defaultScope(): MemoryScope {
    return agentScope(this.deps.agentId);
  }

  async search(query: string, options: MemorySearchOptions): Promise<MemorySearchResult[]> {
    const text = query.trim();
    if (!text) throw new Error('memory search needs a non-empty query');
    const store = this.requireStore();
    const settings = this.deps.config.search;
    const k = options.k ?? settings.topK;
    if (!Number.isInteger(k) || k < 1 || k > 100) throw new Error(`memory search k must be 1..100, got ${k}`);
    const [vector] = await this.deps.embedder.embed([text], options.signal);
    const pool = Math.max(40, k * 4);
    const backendQuery = { scope: options.scope.id, limit: pool };
    const lexicons = this.deps.lexicons ?? sharedLexicons();
    await lexicons.prepare?.();
    const textQuery = buildTextQuery(text, lexicons, {
      expand: this.deps.expandQueries,
      vocabulary: this.vocabulary,
    });
    // A full-text query for words no note holds finds nothing: it is not asked (a LanceDB query
    // costs milliseconds however small the index; issue 23).
    const [vectorHits, textHits] = await Promise.all([
      store.vectorSearch(vector!, backendQuery),
      this.vocabulary.mayMatch(textQuery.clauses) ? store.textSearch(textQuery.clauses, backendQuery) : [],
    ]);
    const now = this.deps.clock.now();
    // Each candidate's concept credits, once: the weights, the coverage and supersession read them.
    const credits = new Map<string, number[]>();
    for (const hit of [...vectorHits, ...textHits])
      if (!credits.has(hit.row.id)) credits.set(hit.row.id, conceptCredits(textQuery.concepts, hit.row.ftsText));
    const creditsOf = (row: MemoryChunkRow) => credits.get(row.id) ?? conceptCredits(textQuery.concepts, row.ftsText);
    const weights = weightsOfCredits(textQuery.concepts.length, [...credits.values()]);
    // Only an index with Chinese in it can hold a correction across languages (and only then is
    // the dictionary worth loading).
    const dictionary =
      this.deps.expandQueries !== false && this.vocabulary.hasChinese ? lexicons.dictionary() : undefined;
    const crossLanguage = dictionary ? crossLanguageSubject(dictionary) : undefined;
    const ranked = rankHybrid(vectorHits, textHits, {
      ...settings,
      ...searchWeightsFor(this.deps.embedder.id, settings),
      topK: k,
      minScore: options.minScore ?? settings.minScore,
      now,
      coverage: (row) => coverageOfCredits(creditsOf(row), weights),
      matchedConcepts: (row) => matchedOfCredits(creditsOf(row)),
      ...(crossLanguage ? { crossLanguageSubject: crossLanguage } : {}),
      queryVector: vector,
    });
    const results = ranked.map(({ row, score, vectorScore, textScore, decay }) => ({
      path: row.path,
      startLine: row.startLine,
      endLine: row.endLine,
      score,
      vectorScore,
      textScore,
      decay,
      snippet: row.text.length > 700 ? `${row.text.slice(0, 700)}…` : row.text,
      heading: row.heading,
      date: row.date || undefined,
      category: row.category,
    }));
    if (options.record !== false && results.length > 0) {
      const day = localDate(now);
      await recordRecalls(
        this.deps.workspaceDir,
        options.scope,
        ranked.map(({ row, score }) => ({
          ts: now,
          day,
          query: text,
          path: row.path,
          score,
          ...bestLine(row.text, row.startLine, text),
        })),
      );
    }
    return results;
  }

  /** Appends a note to today's daily file of the scope (local date from the injected clock). */
  async appendDaily(
    scope: MemoryScope,
    text: string,
    options: { category?: string; slug?: string } = {},
  ): Promise<string> {
    // Every way in (capture, memory_write, flushes) goes through here: tokens and keys never land in memory.
    const body = redactSecrets(text).text.replace(/\s+/g, ' ').trim();
    if (!body) throw new Error('memory note is empty');
    const now = this.deps.clock.now();
    const path = dailyPath(scope, localDate(now), options.slug);
    const time = new Date(now);
    const stamp = `${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}`;
    await appendMemoryFile(this.deps.workspaceDir, path, `- ${stamp} [${options.category ?? 'other'}] ${body}`);
    return path;
  }

  /**
   * Auto-capture: a user message that passes `shouldCapture` lands in today's daily file with
   * its category. Returns the decision so callers can log why something was skipped.
   */
  async capture(
    scope: MemoryScope,
    text: string,
    role: CaptureInput['role'],
  ): Promise<CaptureDecision & { path?: string }> {
    const decision = shouldCapture({ text, role, maxChars: this.deps.config.capture.maxChars });
    if (!this.deps.config.capture.enabled) return { capture: false, reason: 'capture is disabled' };
    if (!decision.capture) return decision;
    const path = await this.appendDaily(scope, decision.text, { category: decision.category });
    void this.sync().catch((error) => this.deps.log.error('memory re-index failed', { error: String(error) }));
    return { ...decision, path };
  }

  /** `/new`: the finished session's summary becomes `memory/YYYY-MM-DD-<slug>.md` (written atomically). */
  async archiveSession(scope: MemoryScope, slug: string, markdown: string): Promise<string> {
    if (!slug.trim()) throw new Error('session archive needs a slug');
    const path = dailyPath(scope, localDate(this.deps.clock.now()), slug);
    const clean = redactSecrets(markdown).text;
    await writeMemoryFile(this.deps.workspaceDir, path, clean.endsWith('\n') ? clean : `${clean}\n`);
    void this.sync().catch((error) => this.deps.log.error('memory re-index failed', { error: String(error) }));
    return path;
  }

  async status(): Promise<MemoryStatus> {
    const store = this.requireStore();
    const files = await listMemoryFiles(this.deps.workspaceDir);
    return {
      agentId: this.deps.agentId,
      backend: this.deps.backend.id,
      embedder: { id: this.deps.embedder.id, dimension: this.deps.embedder.dimension },
      files: files.length,
      chunks: await store.count(),
      reindex: this.progress,
      recovered: this.openReport?.recovered,
      issues: [...(this.indexer?.issues ?? new Map()).entries()].flatMap(([path, issues]) =>
        issues.map((issue: { line: number; reason: string }) => ({ path, ...issue })),
      ),
      lastSync: this.lastSync,
      scope: this.scopeSetting(),
      ...(this.scopeSetting() === 'per-user' ? { ownerFolder: `${this.scopeFor(OWNER_USER_ID).root}/` } : {}),
    };
  }

  async close(): Promise<void> {
    await this.idle();
    await this.store?.close();
    this.store = undefined;
  }

  private requireStore(): MemoryIndexStore {
    if (!this.store) throw new Error('memory engine is not open');
    return this.store;
  }

  private requireIndexer(): MemoryIndexer {
    if (!this.indexer) throw new Error('memory engine is not open');
    return this.indexer;
  }
}
