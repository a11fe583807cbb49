import type { MemoryChunkRow } from '../memory/memory-backend.js';
import { toFtsText } from '../memory/text-tokens.js';

/** One index row for ranking tests: a dated daily-note unit (or, with no date, a MEMORY.md line), no vector. */
export function memoryRow(id: string, date: string, text: string): MemoryChunkRow {
  return {
    id,
    path: date ? `memory/${date}.md` : 'MEMORY.md',
    scope: 'agent:main',
    agent: 'main',
    date,
    category: 'other',
    heading: '',
    startLine: 1,
    endLine: 1,
    text,
    ftsText: toFtsText(text),
    fileHash: 'h',
    embedder: 'test',
    vector: new Float32Array(0),
  };
}
