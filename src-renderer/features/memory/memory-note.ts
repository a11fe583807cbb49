/**
 * A recall hit as a person reads it: the note's date (from its daily file's name) or which memory
 * file it is, and what was written, without the file's bullet, clock and `[category]` bookkeeping.
 * The score stays for whoever asks (a tooltip), not on the face of the note.
 */
export interface MemoryNoteSource {
  /** `daily`: memory/2026-12-03.md (a slug after the date is a topic note of that day). */
  kind: 'daily' | 'long-term' | 'about-you' | 'file';
  /** YYYY-MM-DD for daily notes. */
  date?: string;
  /** The file's own name, for `file` (anything else the index holds). */
  name: string;
}

export interface MemoryNoteLine {
  /** HH:MM the note was captured, when the line carries it. */
  time?: string;
  text: string;
}

const dailyName = /^(\d{4}-\d{2}-\d{2})(?:-[a-z0-9-]+)?\.md$/;

export function noteSource(path: string): MemoryNoteSource {
  const name = path.split('/').pop() ?? path;
  const daily = dailyName.exec(name);
  if (daily) return { kind: 'daily', date: daily[1], name };
  if (name === 'MEMORY.md') return { kind: 'long-term', name };
  if (name === 'USER.md') return { kind: 'about-you', name };
  return { kind: 'file', name };
}

// `- 14:32 [entity] Ada works at…`: what appendDaily writes (memory-engine.ts), any part optional.
const captured = /^\s*(?:[-*]\s+)?(?:(\d{1,2}:\d{2})\s+)?(?:\[[a-z-]+\]\s+)?(.*)$/i;

/** The snippet's lines as notes; blank lines and headings' `#` dropped. */
export function noteLines(snippet: string): MemoryNoteLine[] {
  const lines: MemoryNoteLine[] = [];
  for (const raw of snippet.split('\n')) {
    if (!raw.trim()) continue;
    const match = captured.exec(raw.replace(/^#+\s+/, ''));
    const text = (match?.[2] ?? raw).trim();
    if (!text) continue;
    lines.push(match?.[1] ? { time: match[1], text } : { text });
  }
  return lines;
}

/** "3 Dec 2026" / "2026年12月3日": the day of a daily note in the person's language, read as a local date. */
export function formatNoteDate(date: string, locale: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return date;
  return new Date(y, m - 1, d).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });
}

export interface ParsedMemorySearch {
  path: string;
  line: number;
  score: number;
  snippet: string;
}

const hitHeader = /^(\S.*?):(\d+)-\d+ \(score (-?[\d.]+)\)$/;

/**
 * memory_search's tool output (`path:start-end (score 0.42)` then the snippet, per hit; see
 * memory-tools.ts) back into hits, so the chat shows the notes the agent read. Output that is not
 * in that shape (an error, "No matching memories.") gives no hits.
 */
export function parseMemorySearchOutput(output: string): ParsedMemorySearch[] {
  const hits: ParsedMemorySearch[] = [];
  let current: ParsedMemorySearch | undefined;
  for (const line of output.split('\n')) {
    const header = hitHeader.exec(line);
    if (header) {
      current = { path: header[1]!, line: Number(header[2]), score: Number(header[3]), snippet: '' };
      hits.push(current);
    } else if (current) {
      current.snippet = current.snippet ? `${current.snippet}\n${line}` : line;
    }
  }
  for (const hit of hits) hit.snippet = hit.snippet.trim();
  return hits;
}
