import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { ToolDefinition } from '../tool.js';
import { type FileAccess, FileToolError } from './file-access.js';
import { fileToolResult } from './file-tool-result.js';
import { assertTextFile } from './text-file.js';
import { nonEmpty } from './tool-input.js';

export const editToolInputSchema = z.object({
  path: nonEmpty('path'),
  old: nonEmpty('old', ' (use write to create a file)'),
  new: z.string(),
  all: z.boolean().optional(),
});
export type EditToolInput = z.infer<typeof editToolInputSchema>;

/** How many match lines an ambiguity error lists. */
const SHOWN_MATCHES = 10;

/**
 * `edit`: replaces an exact string. It must occur once (or `all`); a missing or ambiguous
 * match is an error that says which, with the lines of the matches or a hint at why not.
 */
export function createEditTool(access: FileAccess): ToolDefinition<EditToolInput> {
  return {
    name: 'edit',
    description: 'Replace exact text old with new in a file; old must match once unless all.',
    inputSchema: editToolInputSchema,
    execute: (input, context) =>
      fileToolResult(input.path, async () => {
        const { path, shown } = await access.check(input.path, 'write', 'edit', context);
        await assertTextFile(path, shown, 'edit');
        const text = await readFile(path, 'utf8');
        const at = occurrences(text, input.old);
        if (at.length === 0)
          throw new FileToolError(`edit: the old text was not found in ${shown}${nearMiss(text, input.old)}`);
        if (at.length > 1 && !input.all) {
          const lines = at.slice(0, SHOWN_MATCHES).map((index) => lineOf(text, index));
          throw new FileToolError(
            `edit: the old text occurs ${at.length} times in ${shown} (lines ${lines.join(', ')}${at.length > SHOWN_MATCHES ? ', …' : ''}); include more surrounding lines so it matches once, or set all to replace every one`,
          );
        }
        if (input.old === input.new) throw new FileToolError('edit: old and new are the same; nothing to change');
        // split/join, not String.replace: `$&` and `$1` in the new text stay as written.
        const next = input.all
          ? text.split(input.old).join(input.new)
          : text.slice(0, at[0]) + input.new + text.slice(at[0]! + input.old.length);
        const { mode } = await stat(path);
        await writeFileAtomic(path, next, mode & 0o7777);
        const where = at.length === 1 ? `line ${lineOf(text, at[0]!)}` : `${at.length} places`;
        return `edited ${shown}: replaced ${at.length === 1 ? 'one occurrence' : `${at.length} occurrences`} (${where})`;
      }),
  };
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** Why an exact match may have failed, when the usual suspects explain it. */
function nearMiss(text: string, old: string): string {
  if (text.includes('\r\n') && !old.includes('\r\n') && text.includes(old.replace(/\n/g, '\r\n')))
    return ' (the file has CRLF line endings; the text matches with \\r\\n)';
  const squash = (value: string) => value.replace(/\s+/g, ' ').trim();
  if (squash(old) !== '' && squash(text).includes(squash(old)))
    return ' (it matches when whitespace is ignored: check indentation, tabs and line breaks; read the lines again)';
  return '; read the file again and copy the text exactly';
}
