import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ToolDefinition } from '../tool.js';
import { type FileAccess, FileToolError, within } from './file-access.js';
import { fileToolResult } from './file-tool-result.js';
import { ignoresFor, isIgnored } from './walk.js';

export const listToolInputSchema = z.object({ path: z.string().optional(), all: z.boolean().optional() });
export type ListToolInput = z.infer<typeof listToolInputSchema>;

export const LIST_MAX_ENTRIES = 500;

/** `list`: one folder's entries (folders end in `/`, links show their target's kind), .gitignore honoured. */
export function createListTool(access: FileAccess): ToolDefinition<ListToolInput> {
  return {
    name: 'list',
    description: 'List a folder (default the workspace); .gitignored hidden unless all.',
    inputSchema: listToolInputSchema,
    execute: (input, context) =>
      fileToolResult(input.path ?? '.', async () => {
        const { path, shown, forbidden } = await access.check(input.path ?? '.', 'read', 'list', context);
        const info = await stat(path);
        if (!info.isDirectory()) throw new FileToolError(`${shown} is a file, not a folder; use read`);
        const ignores = input.all ? [] : await ignoresFor(path);
        const entries = (await readdir(path, { withFileTypes: true })).filter((entry) => {
          const full = join(path, entry.name);
          if (forbidden.some((place) => within(place, full))) return false;
          return input.all || (entry.name !== '.git' && !isIgnored(ignores, full, entry.isDirectory()));
        });
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const shownEntries = await Promise.all(
          entries.slice(0, LIST_MAX_ENTRIES).map((entry) => entryLine(path, entry)),
        );
        if (entries.length === 0) return `(${shown} is empty)`;
        const more =
          entries.length > LIST_MAX_ENTRIES
            ? `\n[${entries.length - LIST_MAX_ENTRIES} more entries not shown; use find with a pattern]`
            : '';
        return shownEntries.join('\n') + more;
      }),
  };
}

async function entryLine(folder: string, entry: Dirent): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (entry.isSymbolicLink()) {
    const target = await stat(join(folder, entry.name)).catch(() => undefined);
    return `${entry.name}${target?.isDirectory() ? '/' : ''} (link${target ? '' : ', broken'})`;
  }
  return entry.name;
}
