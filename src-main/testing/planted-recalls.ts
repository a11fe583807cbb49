import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Test support (never shipped): writes `memory/.dreams/recalls.jsonl` as if `text` (line `line`
 * of the daily note `path`) had been recalled strongly by two queries on each of the three days
 * up to `today` — enough for it to pass Dreaming's Deep gates. The unit under test is what
 * Dreaming does with a candidate, not how searches find it.
 */
export async function plantRecalls(
  scopeDir: string,
  notes: readonly { text: string; path: string; line: number; queries?: readonly string[] }[],
  today: Date,
): Promise<void> {
  const days = [2, 1, 0].map((back) => {
    const day = new Date(today.getFullYear(), today.getMonth(), today.getDate() - back, 12);
    return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
  });
  const entries: string[] = [];
  for (const note of notes)
    for (const [ts, day] of days.entries())
      for (const query of note.queries ?? [`${note.text} first`, `${note.text} second`])
        entries.push(JSON.stringify({ ts, day, query, path: note.path, line: note.line, text: note.text, score: 0.9 }));
  await mkdir(join(scopeDir, 'memory', '.dreams'), { recursive: true });
  await writeFile(join(scopeDir, 'memory', '.dreams', 'recalls.jsonl'), `${entries.join('\n')}\n`);
}
