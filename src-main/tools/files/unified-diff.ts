import { parsePatch, type StructuredPatch } from 'diff';
import { FileToolError } from './file-access.js';

/** One file's change in a unified diff: paths without `a/` `b/`, undefined for /dev/null. */
export interface FilePatch {
  oldPath?: string;
  newPath?: string;
  hunks: StructuredPatch['hunks'];
}

/**
 * Parses a unified diff (`git diff`, `diff -u`) with jsdiff's parser. Refuses what is not one:
 * no file headers, a hunk without a file, the `*** Begin Patch` envelope of another format.
 */
export function parseUnifiedDiff(patch: string): FilePatch[] {
  if (/^\*\*\* (Begin Patch|Update File:|Add File:)/m.test(patch))
    throw new FileToolError(
      'apply_patch takes a unified diff (--- a/path, +++ b/path, @@ -l,n +l,n @@ hunks), not the *** Begin Patch format',
    );
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(patch.replace(/\r\n/g, '\n')) as StructuredPatch[];
  } catch (error) {
    throw new FileToolError(`apply_patch: the patch is not a valid unified diff: ${(error as Error).message}`);
  }
  const files = parsed
    .filter((file) => file.hunks.length > 0 || file.oldFileName || file.newFileName)
    .map((file) => ({
      oldPath: stripPrefix(file.oldFileName),
      newPath: stripPrefix(file.newFileName),
      hunks: file.hunks,
    }));
  if (files.length === 0)
    throw new FileToolError('apply_patch: no file changes found; the patch needs --- and +++ lines and @@ hunks');
  for (const file of files) {
    if (!file.oldPath && !file.newPath)
      throw new FileToolError('apply_patch: a file has neither an old nor a new path');
    if (file.hunks.length === 0)
      throw new FileToolError(
        `apply_patch: ${file.newPath ?? file.oldPath} has no @@ hunks (renames and mode changes alone are not supported)`,
      );
  }
  return files;
}

function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === '' || name === '/dev/null') return undefined;
  const bare = name.split('\t')[0]!;
  return /^[ab]\//.test(bare) ? bare.slice(2) : bare;
}

/** A file as lines (without their `\n`) and whether its last line ended with one. */
interface Lines {
  lines: string[];
  finalNewline: boolean;
}

function toLines(text: string): Lines {
  if (text === '') return { lines: [], finalNewline: true };
  const finalNewline = text.endsWith('\n');
  const lines = (finalNewline ? text.slice(0, -1) : text).split('\n');
  return { lines, finalNewline };
}

/**
 * Applies `hunks` to `text`, exactly: every context and removed line must be in the file as
 * written (a CRLF file matches LF patch lines and keeps its CRLF). A hunk may sit at another
 * line than its header says (as `git apply`), if its lines occur exactly once after the
 * previous hunk. A hunk that does not fit is an error naming it and the first line that differs.
 */
export function applyHunks(text: string, hunks: FilePatch['hunks'], shown: string): string {
  const file = toLines(text);
  const crlf = file.lines.length > 0 && file.lines.every((line) => line.endsWith('\r'));
  const bare = crlf ? file.lines.map((line) => line.slice(0, -1)) : file.lines;
  const out: string[] = [];
  let cursor = 0;
  let finalNewline = file.finalNewline;
  hunks.forEach((hunk, index) => {
    const before: string[] = [];
    const after: string[] = [];
    let newNoEol = false;
    let last = '';
    for (const line of hunk.lines) {
      const mark = line[0];
      const body = line.slice(1);
      if (mark === ' ') {
        before.push(body);
        after.push(body);
      } else if (mark === '-') before.push(body);
      else if (mark === '+') after.push(body);
      else if (mark === '\\') {
        if (last === ' ' || last === '+') newNoEol = true;
        continue;
      }
      last = mark ?? '';
    }
    const name = `hunk ${index + 1} of ${hunks.length} (@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@) in ${shown}`;
    const at = locate(bare, before, Math.max(cursor, hunk.oldStart - 1), cursor, name);
    out.push(...bare.slice(cursor, at), ...after);
    cursor = at + before.length;
    if (cursor === bare.length) finalNewline = !newNoEol;
  });
  out.push(...bare.slice(cursor));
  if (out.length === 0) return '';
  const eol = crlf ? '\r\n' : '\n';
  return out.join(eol) + (finalNewline ? eol : '');
}

function locate(lines: readonly string[], want: readonly string[], hinted: number, from: number, name: string): number {
  const fits = (at: number) => at + want.length <= lines.length && want.every((line, i) => lines[at + i] === line);
  if (fits(hinted)) return hinted;
  const found: number[] = [];
  for (let at = from; at + want.length <= lines.length && found.length < 2; at += 1) if (fits(at)) found.push(at);
  if (found.length === 1) return found[0]!;
  if (want.length === 0) return Math.min(hinted, lines.length);
  if (found.length > 1)
    throw new FileToolError(
      `apply_patch: ${name} does not apply at line ${hinted + 1}, and its lines occur more than once below line ${from}; add context lines so it matches once`,
    );
  throw new FileToolError(
    `apply_patch: ${name} does not apply: ${firstDifference(lines, want, hinted)}; read the file again and make the - and context lines match it exactly`,
  );
}

function firstDifference(lines: readonly string[], want: readonly string[], at: number): string {
  for (let i = 0; i < want.length; i += 1) {
    const has = lines[at + i];
    if (has !== want[i]) {
      const line = at + i + 1;
      if (has === undefined)
        return `line ${line} is past the end of the file (${lines.length} lines), expected ${JSON.stringify(want[i])}`;
      const why = has.trim() === want[i]!.trim() ? ' (they differ in whitespace)' : '';
      return `line ${line} is ${JSON.stringify(clip(has))} but the patch expects ${JSON.stringify(clip(want[i]!))}${why}`;
    }
  }
  return `its lines were not found`;
}

function clip(line: string): string {
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
