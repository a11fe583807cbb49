import { describe, expect, it } from 'vitest';
import { chunkMarkdownText } from './markdown-chunker.js';
import { toFtsText } from './text-tokens.js';

describe('markdown chunker', () => {
  it('keeps chunks near the token budget with overlapping lines', () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} ${'word '.repeat(12)}`).join('\n');
    const chunks = chunkMarkdownText(text, { maxTokens: 400, overlapTokens: 80 });
    expect(chunks.length).toBeGreaterThan(5);
    for (let i = 1; i < chunks.length; i++) {
      // The next chunk starts inside the previous one: ~80 tokens of shared context.
      expect(chunks[i]!.startLine).toBeLessThanOrEqual(chunks[i - 1]!.endLine);
      expect(chunks[i]!.startLine).toBeGreaterThan(chunks[i - 1]!.startLine);
    }
  });

  it('starts a chunk at each heading and carries the heading path', () => {
    const chunks = chunkMarkdownText('# Work\n## Projects\n- Bluebird ships in May\n# Home\n- Fix the fence\n');
    expect(chunks.map((chunk) => [chunk.heading, chunk.startLine, chunk.endLine])).toEqual([
      ['Work', 1, 1],
      ['Work > Projects', 2, 3],
      ['Home', 4, 5],
    ]);
  });

  it('splits CJK into bigrams for the full-text column', () => {
    expect(toFtsText('我喜欢火锅 and Meetings')).toBe('我喜 喜欢 欢火 火锅 meeting');
  });
});
