import { searchTerms } from './text-tokens.js';

/** The category tag capture writes: `- 09:30 [preference] I like green tea`. */
const CATEGORY_TAG = /\[(preference|decision|entity|fact|other)\]/;

export function categoryOfText(text: string): string {
  return CATEGORY_TAG.exec(text)?.[1] ?? 'other';
}

/** A note line without list markers, time stamps and category tags: what Dreaming compares and promotes. */
export function noteBody(line: string): string {
  return line
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
    .replace(/^\d{1,2}:\d{2}\s+/, '')
    .replace(CATEGORY_TAG, '')
    .trim();
}

/** The line of a chunk that best matches a query: the unit recorded for Dreaming. */
export function bestLine(text: string, startLine: number, query: string): { line: number; text: string } {
  const wanted = new Set(searchTerms(query));
  let best = { line: startLine, text: '', overlap: -1 };
  text.split('\n').forEach((raw, index) => {
    const body = noteBody(raw);
    if (!body || /^#/.test(raw)) return;
    const overlap = searchTerms(body).filter((term) => wanted.has(term)).length;
    if (overlap > best.overlap) best = { line: startLine + index, text: body, overlap };
  });
  return { line: best.line, text: best.text };
}
