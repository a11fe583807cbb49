import { describe, expect, it } from 'vitest';
import { formatNoteDate, noteLines, noteSource, parseMemorySearchOutput } from './memory-note.js';

describe('memory notes', () => {
  it('reads the date from a daily note file, and names the other memory files', () => {
    expect(noteSource('memory/2026-12-03.md')).toEqual({ kind: 'daily', date: '2026-12-03', name: '2026-12-03.md' });
    expect(noteSource('users/ada/memory/2026-12-01-trip-plans.md')).toMatchObject({
      kind: 'daily',
      date: '2026-12-01',
    });
    expect(noteSource('MEMORY.md').kind).toBe('long-term');
    expect(noteSource('USER.md').kind).toBe('about-you');
    expect(noteSource('notes/ideas.md')).toEqual({ kind: 'file', name: 'ideas.md' });
  });

  it('drops the bullet, clock and [category] a captured line carries, keeping the time apart', () => {
    expect(noteLines('- 14:32 [entity] Ada works at the observatory\n\n- [preference] likes green tea')).toEqual([
      { time: '14:32', text: 'Ada works at the observatory' },
      { text: 'likes green tea' },
    ]);
    expect(noteLines('## Facts\nplain text')).toEqual([{ text: 'Facts' }, { text: 'plain text' }]);
  });

  it('formats a note day in the reader language, as a local date', () => {
    expect(formatNoteDate('2026-12-03', 'en')).toBe('Dec 3, 2026');
    expect(formatNoteDate('2026-12-03', 'zh-CN')).toBe('2026年12月3日');
    expect(formatNoteDate('not-a-date', 'en')).toBe('not-a-date');
  });

  it('reads memory_search output back into hits, and nothing from an answer in another shape', () => {
    const output =
      'memory/2026-12-03.md:4-5 (score 0.42)\n- 09:10 [entity] Ada\n- 09:11 [fact] the sky\n\nMEMORY.md:1-1 (score 0.30)\nlikes tea';
    expect(parseMemorySearchOutput(output)).toEqual([
      { path: 'memory/2026-12-03.md', line: 4, score: 0.42, snippet: '- 09:10 [entity] Ada\n- 09:11 [fact] the sky' },
      { path: 'MEMORY.md', line: 1, score: 0.3, snippet: 'likes tea' },
    ]);
    expect(parseMemorySearchOutput('No matching memories.')).toEqual([]);
  });
});
