import { describe, expect, it } from 'vitest';
import { chunkMarkdownText } from './markdown-chunker.js';

describe('markdown chunker', () => {
  it('makes each top-level bullet, paragraph and code block a unit, with its heading path', () => {
    const text = [
      '# 2026-10-14', // 1
      '',
      '## Work', // 3
      '- 09:30 fixed XmlError in propfind.rs', // 4
      '  - root cause: truncated body', // 5
      '- lunch with Anna', // 6
      '',
      'A paragraph, line one', // 8
      'and line two', // 9
      '',
      '## Empty', // 11
      '# Home', // 12
      '```', // 13
      'code',
      '',
      'more',
      '```', // 17
      '1. first', // 18
      '2. second', // 19
    ].join('\n');
    expect(chunkMarkdownText(text).map((chunk) => [chunk.heading, chunk.startLine, chunk.endLine])).toEqual([
      ['2026-10-14 > Work', 4, 5],
      ['2026-10-14 > Work', 6, 6],
      ['2026-10-14 > Work', 8, 9],
      ['2026-10-14', 11, 11],
      ['Home', 13, 17],
      ['Home', 18, 18],
      ['Home', 19, 19],
    ]);
  });

  it('cuts a unit longer than the token budget at line boundaries', () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} ${'word '.repeat(12)}`).join('\n');
    const chunks = chunkMarkdownText(text, { maxTokens: 100 });
    expect(chunks.length).toBeGreaterThan(10);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.startLine).toBe(chunks[i - 1]!.endLine + 1);
    expect(chunks.at(-1)!.endLine).toBe(200);
  });

  it('keeps a single huge line as one unit rather than losing it', () => {
    const chunks = chunkMarkdownText(`- ${'x'.repeat(50_000)}\n- next`);
    expect(chunks.map((chunk) => [chunk.startLine, chunk.endLine])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });
});
