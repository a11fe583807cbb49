import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { estimateTokens } from './text-tokens.js';

export interface MarkdownChunk {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The heading path in force at the chunk's first line ("Work > Projects"). */
  heading: string;
  text: string;
}

export interface ChunkingOptions {
  maxTokens?: number;
  overlapTokens?: number;
}

export interface ParseIssue {
  line: number;
  reason: string;
}

interface Line {
  number: number;
  text: string;
  tokens: number;
}

/**
 * Splits markdown into ~400-token chunks with ~80 tokens of overlap, line-aligned, and
 * starts a fresh chunk at each heading so a chunk rarely straddles two topics. Lines are
 * pushed one at a time, so a file of any size is chunked from a stream.
 */
export class MarkdownChunker {
  private readonly maxTokens: number;
  private readonly overlapTokens: number;
  private lines: Line[] = [];
  private tokens = 0;
  private headings: string[] = [];
  private chunkHeading = '';
  private readonly out: MarkdownChunk[] = [];

  constructor(options: ChunkingOptions = {}) {
    this.maxTokens = options.maxTokens ?? 400;
    this.overlapTokens = options.overlapTokens ?? 80;
  }

  push(number: number, text: string): void {
    const heading = /^(#{1,6})\s+(.*)$/.exec(text);
    if (heading) {
      this.flush(false);
      const level = heading[1]!.length;
      this.headings = [...this.headings.slice(0, level - 1), heading[2]!.trim()];
    }
    const tokens = estimateTokens(text) + 1;
    if (this.tokens + tokens > this.maxTokens && this.lines.length > 0) this.flush(true);
    if (this.lines.length === 0) this.chunkHeading = this.headings.filter(Boolean).join(' > ');
    this.lines.push({ number, text, tokens });
    this.tokens += tokens;
  }

  /** Chunks completed so far (drained). */
  take(): MarkdownChunk[] {
    return this.out.splice(0, this.out.length);
  }

  end(): MarkdownChunk[] {
    this.flush(false);
    return this.take();
  }

  private flush(keepOverlap: boolean): void {
    const body = this.lines.map((line) => line.text).join('\n');
    if (body.trim()) {
      this.out.push({
        startLine: this.lines[0]!.number,
        endLine: this.lines[this.lines.length - 1]!.number,
        heading: this.chunkHeading,
        text: body,
      });
    }
    if (!keepOverlap) {
      this.lines = [];
      this.tokens = 0;
      return;
    }
    const kept: Line[] = [];
    let keptTokens = 0;
    for (let i = this.lines.length - 1; i > 0 && keptTokens < this.overlapTokens; i--) {
      kept.unshift(this.lines[i]!);
      keptTokens += this.lines[i]!.tokens;
    }
    this.lines = kept;
    this.tokens = keptTokens;
  }
}

export function chunkMarkdownText(text: string, options?: ChunkingOptions): MarkdownChunk[] {
  const chunker = new MarkdownChunker(options);
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start another (as readline sees it).
  if (lines.at(-1) === '') lines.pop();
  for (let index = 0; index < lines.length; index++) chunker.push(index + 1, lines[index]!);
  return chunker.end();
}

/**
 * Streams a file through the chunker. Stops at the first line that is not text (NUL bytes,
 * invalid UTF-8) and reports it: what parsed before it is still indexed.
 */
export async function* chunkMarkdownFile(
  path: string,
  options: ChunkingOptions & { issues?: ParseIssue[] } = {},
): AsyncGenerator<MarkdownChunk> {
  const chunker = new MarkdownChunker(options);
  const reader = createInterface({
    input: createReadStream(path, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let number = 0;
  try {
    for await (const line of reader) {
      number++;
      if (line.includes('\u0000') || line.includes('\uFFFD')) {
        options.issues?.push({ line: number, reason: 'binary or invalid UTF-8 content; indexing stopped here' });
        break;
      }
      chunker.push(number, line);
      yield* chunker.take();
    }
  } finally {
    reader.close();
  }
  yield* chunker.end();
}
