import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { estimateTokens } from './text-tokens.js';

export interface MarkdownChunk {
  /** 1-based, inclusive: the unit's own lines (headings above it are context, not part of it). */
  startLine: number;
  endLine: number;
  /** The heading path in force at the chunk's first line ("Work > Projects"). */
  heading: string;
  text: string;
}

export interface ChunkingOptions {
  /** A unit longer than this (estimated tokens) is cut at line boundaries. */
  maxTokens?: number;
}

export interface ParseIssue {
  line: number;
  reason: string;
}

interface Line {
  number: number;
  text: string;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,3}[.)])\s+/;
const FENCE = /^\s*(```|~~~)/;

/**
 * Cuts markdown the way a person reads it: each top-level bullet (with its sub-bullets and
 * continuation lines), each paragraph and each fenced code block is one unit of memory, so
 * ten unrelated bullets of a day are ten results, not one. Headings are not units: the
 * heading path in force ("Work > Solver") is stored with every unit below it. A unit longer
 * than `maxTokens` is cut at line boundaries. Lines are pushed one at a time, so a file of
 * any size is chunked from a stream.
 */
export class MarkdownChunker {
  private readonly maxTokens: number;
  private lines: Line[] = [];
  private tokens = 0;
  private headings: string[] = [];
  private unitHeading = '';
  /** The heading line that opened a section nothing has been written under yet. */
  private bareHeading: Line | undefined;
  private bareLevel = 0;
  private inFence: string | undefined;
  private readonly out: MarkdownChunk[] = [];

  constructor(options: ChunkingOptions = {}) {
    this.maxTokens = options.maxTokens ?? 256;
  }

  push(number: number, text: string): void {
    if (this.inFence !== undefined) {
      this.append(number, text);
      if (text.trim().startsWith(this.inFence)) {
        this.inFence = undefined;
        this.flush();
      }
      return;
    }
    const fence = FENCE.exec(text);
    if (fence) {
      this.flush();
      this.inFence = fence[1]!;
      this.append(number, text);
      return;
    }
    const heading = HEADING.exec(text);
    if (heading) {
      this.flush();
      const level = heading[1]!.length;
      // A heading followed by a deeper one is a parent, not an empty section.
      if (this.bareHeading && level <= this.bareLevel) this.flushBareHeading();
      this.bareLevel = level;
      this.headings = [...this.headings.slice(0, level - 1), heading[2]!.trim()];
      while (this.headings.length < level) this.headings.push('');
      this.bareHeading = { number, text };
      return;
    }
    if (!text.trim()) {
      this.flush();
      return;
    }
    const item = LIST_ITEM.exec(text);
    // A bullet at the unit's own depth (or shallower) starts a new unit; deeper ones belong to it.
    if (item && this.lines.length > 0 && item[1]!.length <= indentOf(this.lines[0]!.text)) this.flush();
    this.append(number, text);
  }

  /** Chunks completed so far (drained). */
  take(): MarkdownChunk[] {
    return this.out.splice(0, this.out.length);
  }

  end(): MarkdownChunk[] {
    this.flush();
    this.flushBareHeading();
    return this.take();
  }

  private append(number: number, text: string): void {
    const tokens = estimateTokens(text) + 1;
    if (this.tokens + tokens > this.maxTokens && this.lines.length > 0) this.flush();
    if (this.lines.length === 0) this.unitHeading = this.headings.filter(Boolean).join(' > ');
    this.bareHeading = undefined;
    this.lines.push({ number, text });
    this.tokens += tokens;
  }

  private flush(): void {
    if (this.lines.length > 0) {
      const body = this.lines.map((line) => line.text).join('\n');
      if (body.trim())
        this.out.push({
          startLine: this.lines[0]!.number,
          endLine: this.lines[this.lines.length - 1]!.number,
          heading: this.unitHeading,
          text: body,
        });
    }
    this.lines = [];
    this.tokens = 0;
  }

  /** A heading with nothing under it is still findable, as a unit of its own. */
  private flushBareHeading(): void {
    const bare = this.bareHeading;
    if (!bare) return;
    this.bareHeading = undefined;
    this.out.push({
      startLine: bare.number,
      endLine: bare.number,
      heading: this.headings.slice(0, -1).filter(Boolean).join(' > '),
      text: bare.text,
    });
  }
}

function indentOf(text: string): number {
  return /^\s*/.exec(text)![0].length;
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
