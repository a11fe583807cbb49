import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../base/logger.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { answerMarkers } from './answer-kinds.js';
import type { Embedder } from './embedders/embedder.js';
import type { IndexVocabulary } from './index-vocabulary.js';
import { chunkMarkdownFile, type MarkdownChunk, type ParseIssue } from './markdown-chunker.js';
import type { MemoryChunkRow, MemoryIndexStore } from './memory-backend.js';
import { dateOfPath, listMemoryFiles } from './memory-files.js';
import { scopeOfPath } from './memory-scope.js';
import { categoryOfText } from './note-lines.js';
import { toFtsText } from './text-tokens.js';

/**
 * Bumped whenever the terms in the full-text column change shape (tokenizer, chunking, date
 * context, answer markers): an index written under another version is rebuilt from the markdown on open.
 */
export const SEARCH_TERMS_VERSION = 3;

const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const WEEKDAYS = 'sunday monday tuesday wednesday thursday friday saturday'.split(' ');
const CHINESE_MONTHS = '一月 二月 三月 四月 五月 六月 七月 八月 九月 十月 十一月 十二月'.split(' ');
const CHINESE_WEEKDAYS = '周日 周一 周二 周三 周四 周五 周六'.split(' ');

/**
 * What a person says about a note's date, as words: `2026-10-14` → 2026-10 october wednesday
 * 十月 周三 (the date itself is in the text already), so "what did I decide in October about
 * the solver" meets October's notes.
 */
export function dateContext(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return '';
  const month = Number(match[2]) - 1;
  const weekday = new Date(Date.UTC(Number(match[1]), month, Number(match[3]))).getUTCDay();
  return `${date} ${match[1]}-${match[2]} ${MONTHS[month]} ${WEEKDAYS[weekday]} ${CHINESE_MONTHS[month]} ${CHINESE_WEEKDAYS[weekday]}`;
}

const EMBED_BATCH = 256;
/** Rows per LanceDB commit. */
const WRITE_BATCH = 4096;

export interface IndexProgress {
  phase: 'index' | 'reembed';
  done: number;
  total: number;
  path?: string;
}

export interface IndexReport {
  files: number;
  indexed: number;
  removed: number;
  chunks: number;
  issues: { path: string; line: number; reason: string }[];
}

interface IndexMeta {
  embedder: string;
  dimension: number;
  /** SEARCH_TERMS_VERSION the full-text column was written with (absent: before version 2). */
  terms?: number;
  /** False while a sync runs: a crash mid-sync leaves it false and the next open re-checks every file. */
  complete: boolean;
  /**
   * The paths a running sync is rewriting, recorded before the first row is deleted or written.
   * A file can span several commits, so after a crash its rows may be partial yet carry the new
   * hash; these paths are re-indexed whatever their hash says.
   */
  pending?: string[];
}

export interface MemoryIndexerDeps {
  agentId: string;
  workspaceDir: string;
  dbDir: string;
  store: MemoryIndexStore;
  embedder: Embedder;
  log: Logger;
  /** Chunks per embedder call and rows per commit (smaller in tests that cut a sync between commits). */
  batches?: { embed: number; write: number };
  /** Collects the terms written, for the query side (typo candidates, pruning expansions). */
  vocabulary?: IndexVocabulary;
}

/** Keeps the index in step with the markdown files, which are the source of truth. */
export class MemoryIndexer {
  readonly issues = new Map<string, ParseIssue[]>();
  private metaPath: string;

  constructor(private readonly deps: MemoryIndexerDeps) {
    this.metaPath = join(deps.dbDir, 'hearth-index.json');
  }

  async readMeta(): Promise<IndexMeta | undefined> {
    try {
      return JSON.parse(await readFile(this.metaPath, 'utf8')) as IndexMeta;
    } catch {
      return undefined;
    }
  }

  private async writeMeta(complete: boolean, pending?: string[]): Promise<void> {
    await mkdir(this.deps.dbDir, { recursive: true });
    const meta: IndexMeta = {
      embedder: this.deps.embedder.id,
      dimension: this.deps.embedder.dimension,
      terms: SEARCH_TERMS_VERSION,
      complete,
      ...(pending ? { pending } : {}),
    };
    await writeFileAtomic(this.metaPath, JSON.stringify(meta));
  }

  /** Re-indexes files whose content or embedder changed, drops files that are gone. */
  async sync(options: { force?: boolean; onProgress?(progress: IndexProgress): void } = {}): Promise<IndexReport> {
    const { store, embedder, workspaceDir } = this.deps;
    const meta = await this.readMeta();
    const reembed = meta !== undefined && meta.embedder !== embedder.id;
    // What an interrupted sync was rewriting (everything, when it died before recording that).
    const wasInterrupted = meta !== undefined && !meta.complete;
    const interrupted = new Set(wasInterrupted ? (meta.pending ?? []) : []);
    const redoAll = wasInterrupted && meta.pending === undefined;
    const files = await listMemoryFiles(workspaceDir);
    const indexed = new Map((await store.files()).map((entry) => [entry.path, entry]));
    const report: IndexReport = { files: files.length, indexed: 0, removed: 0, chunks: 0, issues: [] };
    // Decide what changed first, then delete all stale rows in one write and add new rows in
    // large batches: LanceDB writes cost per commit, so many small ones would dominate indexing.
    const changed: { path: string; hash: string }[] = [];
    let done = 0;
    const progress = (path: string) =>
      options.onProgress?.({ phase: reembed ? 'reembed' : 'index', done: ++done, total: files.length, path });
    for (const file of files) {
      const hash = await hashFile(join(workspaceDir, file.path));
      const current = indexed.get(file.path);
      indexed.delete(file.path);
      const redo = options.force || redoAll || interrupted.has(file.path);
      if (!redo && current && current.fileHash === hash && current.embedder === embedder.id) {
        const known = this.issues.get(file.path);
        if (known) report.issues.push(...known.map((issue) => ({ path: file.path, ...issue })));
        progress(file.path);
      } else changed.push({ path: file.path, hash });
    }
    const gone = [...indexed.keys()];
    await this.writeMeta(false, [...changed.map((file) => file.path), ...gone]);
    await store.deleteFiles([...changed.map((file) => file.path), ...gone]);
    // Every file is rewritten: the vocabulary starts over, so terms of deleted notes go too.
    if (changed.length === files.length && gone.length + changed.length > 0) this.deps.vocabulary?.clear();
    for (const path of gone) this.issues.delete(path);
    report.removed = gone.length;
    const writer = new RowWriter(
      store,
      embedder,
      this.deps.batches ?? { embed: EMBED_BATCH, write: WRITE_BATCH },
      this.deps.vocabulary,
    );
    for (const file of changed) {
      report.chunks += await this.streamFile(file.path, file.hash, writer);
      report.indexed++;
      for (const issue of this.issues.get(file.path) ?? []) report.issues.push({ path: file.path, ...issue });
      progress(file.path);
    }
    await writer.flush();
    if (report.indexed > 0 || report.removed > 0) await store.maintainIndexes();
    await this.deps.vocabulary?.save();
    await this.writeMeta(true);
    return report;
  }

  /** Streams one file through chunker and embedder into the writer; returns the chunk count. */
  private async streamFile(path: string, hash: string, writer: RowWriter): Promise<number> {
    const { agentId, workspaceDir } = this.deps;
    const scope = scopeOfPath(path, agentId);
    const date = dateOfPath(path) ?? '';
    const issues: ParseIssue[] = [];
    let count = 0;
    for await (const chunk of chunkMarkdownFile(join(workspaceDir, path), { issues })) {
      await writer.push(chunk, { path, hash, scope: scope.id, agent: agentId, date });
      count++;
    }
    if (issues.length > 0) {
      this.issues.set(path, issues);
      this.deps.log.warn('memory file indexed partially', { path, line: issues[0]!.line, reason: issues[0]!.reason });
    } else this.issues.delete(path);
    return count;
  }

  async dropMeta(): Promise<void> {
    await rm(this.metaPath, { force: true });
  }
}

export function hashFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha1');
    createReadStream(path)
      .on('data', (data) => hash.update(data))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

interface ChunkSource {
  path: string;
  hash: string;
  scope: string;
  agent: string;
  date: string;
}

/** Embeds chunks in batches and commits rows in larger batches; memory stays bounded for any file size. */
class RowWriter {
  private chunks: { chunk: MarkdownChunk; source: ChunkSource }[] = [];
  private rows: MemoryChunkRow[] = [];

  constructor(
    private readonly store: MemoryIndexStore,
    private readonly embedder: Embedder,
    private readonly batches: { embed: number; write: number },
    private readonly vocabulary: IndexVocabulary | undefined,
  ) {}

  async push(chunk: MarkdownChunk, source: ChunkSource): Promise<void> {
    this.chunks.push({ chunk, source });
    if (this.chunks.length >= this.batches.embed) await this.embedPending();
    if (this.rows.length >= this.batches.write) await this.commit();
  }

  async flush(): Promise<void> {
    await this.embedPending();
    await this.commit();
  }

  private async embedPending(): Promise<void> {
    if (this.chunks.length === 0) return;
    const pending = this.chunks;
    this.chunks = [];
    const vectors = await this.embedder.embed(
      pending.map(({ chunk }) => (chunk.heading ? `${chunk.heading}\n${chunk.text}` : chunk.text)),
    );
    pending.forEach(({ chunk, source }, index) => {
      this.rows.push({
        id: `${source.path}#${chunk.startLine}-${chunk.endLine}`,
        path: source.path,
        scope: source.scope,
        agent: source.agent,
        date: source.date,
        category: categoryOfText(chunk.text),
        heading: chunk.heading,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        text: chunk.text,
        ftsText: [
          toFtsText(`${dateContext(source.date)} ${chunk.heading} ${chunk.text}`),
          ...answerMarkers(chunk.text),
        ].join(' '),
        fileHash: source.hash,
        embedder: this.embedder.id,
        vector: vectors[index]!,
      });
    });
  }

  private async commit(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    await this.store.addRows(rows);
    for (const row of rows) this.vocabulary?.addChunk(row.ftsText, row.text);
  }
}
