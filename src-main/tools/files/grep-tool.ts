import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, relative } from 'node:path';
import { z } from 'zod';
import type { ToolDefinition } from '../tool.js';
import { type FileAccess, FileToolError } from './file-access.js';
import { fileToolResult } from './file-tool-result.js';
import { globMatcher } from './glob.js';
import { binaryKind } from './text-file.js';
import { nonEmpty } from './tool-input.js';
import { type WalkEntry, walk } from './walk.js';

export const grepToolInputSchema = z.object({
  pattern: nonEmpty('pattern'),
  path: z.string().optional(),
  glob: z.string().optional(),
  ignoreCase: z.boolean().optional(),
  literal: z.boolean().optional(),
});
export type GrepToolInput = z.infer<typeof grepToolInputSchema>;

export const GREP_MAX_MATCHES = 200;
/** Files bigger than this are skipped, as generated or data files. */
export const GREP_MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_LINE_CHARS = 300;

/** `grep`: `file:line: text` for each matching line, .gitignore honoured, binaries skipped (like rg). */
export function createGrepTool(access: FileAccess): ToolDefinition<GrepToolInput> {
  return {
    name: 'grep',
    description: 'Search files under path for a regex (literal: plain text; glob filters files); respects .gitignore.',
    inputSchema: grepToolInputSchema,
    execute: (input, context) =>
      fileToolResult(input.path ?? '.', async () => {
        const regex = compile(input);
        const only = input.glob ? globOrError(input.glob) : undefined;
        const { path, shown, forbidden } = await access.check(input.path ?? '.', 'read', 'grep', context);
        const info = await stat(path);
        const files: AsyncIterable<WalkEntry> | WalkEntry[] = info.isDirectory()
          ? walk(path, { skip: forbidden, signal: context.signal })
          : [{ path, relativePath: basename(path), isDirectory: false }];
        const root = info.isDirectory() ? path : dirname(path);
        const lines: string[] = [];
        let skippedLarge = 0;
        let more = false;
        outer: for await (const entry of files) {
          if (entry.isDirectory || (only && !only(entry.relativePath))) continue;
          const size = (await stat(entry.path).catch(() => undefined))?.size ?? 0;
          if (size > GREP_MAX_FILE_BYTES) {
            skippedLarge += 1;
            continue;
          }
          const bytes = await readFile(entry.path).catch(() => undefined);
          if (!bytes || binaryKind(bytes.subarray(0, 8_192))) continue;
          const text = bytes.toString('utf8').split(/\r?\n/);
          for (let index = 0; index < text.length; index++) {
            const line = text[index]!;
            if (!regex.test(line)) continue;
            if (lines.length === GREP_MAX_MATCHES) {
              more = true;
              break outer;
            }
            const cut = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} […]` : line;
            lines.push(`${relative(root, entry.path).split('\\').join('/')}:${index + 1}: ${cut}`);
          }
        }
        const notes = [
          more ? `[stopped at ${GREP_MAX_MATCHES} matches; narrow the pattern, the folder or the glob]` : '',
          skippedLarge > 0 ? `[${skippedLarge} files over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB skipped]` : '',
        ].filter(Boolean);
        if (lines.length === 0) return [`no matches for ${input.pattern} in ${shown}`, ...notes].join('\n');
        return [...lines, ...notes].join('\n');
      }),
  };
}

function compile(input: GrepToolInput): RegExp {
  const source = input.literal ? input.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : input.pattern;
  try {
    return new RegExp(source, input.ignoreCase ? 'i' : '');
  } catch (error) {
    throw new FileToolError(`grep: the pattern is not a valid regular expression: ${(error as Error).message}`);
  }
}

function globOrError(glob: string): (path: string) => boolean {
  try {
    return globMatcher(glob);
  } catch (error) {
    throw new FileToolError(`grep: ${(error as Error).message}`);
  }
}
