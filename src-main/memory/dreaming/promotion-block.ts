/**
 * What a promotion adds to MEMORY.md, and the same as a diff for the person to review. Dreaming
 * only ever appends: the bytes already in the file stay exactly as they are, and promoted notes
 * go under a dated heading of Hearth's own (`## Promoted by Dreaming — YYYY-MM-DD`). When the
 * file already ends with that day's section, the lines join it instead of repeating the heading.
 */
export const PROMOTED_HEADING = '## Promoted by Dreaming — ';

/** The text to append to `existing` so that it ends with `texts` under the day's heading. */
export function promotionAppend(existing: string, texts: readonly string[], day: string): string {
  const lines = texts.map((text) => `- ${text}`);
  const separator = existing.length === 0 || existing.endsWith('\n') ? '' : '\n';
  if (endsWithSectionOf(existing, day)) return `${separator}${lines.join('\n')}\n`;
  const gap = existing.length === 0 ? '' : '\n';
  return `${separator}${gap}${PROMOTED_HEADING}${day}\n\n${lines.join('\n')}\n`;
}

/**
 * A unified diff of MEMORY.md before and after the append (the last lines of the file as
 * context, then the added lines), what the Dreams view and `hearth memory promote` show.
 */
export function promotionDiff(path: string, existing: string, texts: readonly string[], day: string): string {
  const before = splitLines(existing);
  const added = splitLines(`${existing}${promotionAppend(existing, texts, day)}`).slice(before.length);
  const context = before.slice(-3);
  const start = before.length - context.length + 1;
  const header = `@@ -${context.length ? start : 0},${context.length} +${context.length ? start : 1},${context.length + added.length} @@`;
  return [
    `--- ${path}`,
    `+++ ${path}`,
    header,
    ...context.map((line) => ` ${line}`),
    ...added.map((line) => `+${line}`),
  ].join('\n');
}

/** True when the file's last section is Hearth's section for `day` holding only note lines. */
function endsWithSectionOf(existing: string, day: string): boolean {
  const lines = splitLines(existing);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line === `${PROMOTED_HEADING}${day}`) return true;
    if (line !== '' && !line.startsWith('- ')) return false;
  }
  return false;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
