import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { ToolDefinition } from '../tool.js';
import { type FileAccess, FileToolError } from './file-access.js';
import { fileToolResult } from './file-tool-result.js';
import { globMatcher } from './glob.js';
import { nonEmpty } from './tool-input.js';
import { walk } from './walk.js';

export const findToolInputSchema = z.object({
  pattern: nonEmpty('pattern'),
  path: z.string().optional(),
  type: z.enum(['file', 'folder']).optional(),
});
export type FindToolInput = z.infer<typeof findToolInputSchema>;

export const FIND_MAX_RESULTS = 1_000;

/** `find`: paths under a folder matching a glob, .gitignore honoured, `.git` skipped. */
export function createFindTool(access: FileAccess): ToolDefinition<FindToolInput> {
  return {
    name: 'find',
    description: 'Find paths by glob (*.ts, src/**/x_*.py) under path; respects .gitignore.',
    inputSchema: findToolInputSchema,
    execute: (input, context) =>
      fileToolResult(input.path ?? '.', async () => {
        let matches: (path: string) => boolean;
        try {
          matches = globMatcher(input.pattern);
        } catch (error) {
          throw new FileToolError(`find: ${(error as Error).message}`);
        }
        const { path, shown, forbidden } = await access.check(input.path ?? '.', 'read', 'find', context);
        if (!(await stat(path)).isDirectory()) throw new FileToolError(`${shown} is a file, not a folder`);
        const found: string[] = [];
        let more = false;
        for await (const entry of walk(path, { skip: forbidden, signal: context.signal })) {
          if (input.type === 'file' && entry.isDirectory) continue;
          if (input.type === 'folder' && !entry.isDirectory) continue;
          if (!matches(entry.relativePath)) continue;
          if (found.length === FIND_MAX_RESULTS) {
            more = true;
            break;
          }
          found.push(entry.isDirectory ? `${entry.relativePath}/` : entry.relativePath);
        }
        if (found.length === 0) return `no paths under ${shown} match ${input.pattern}`;
        const where = shown === '.' ? '' : `[under ${shown}]\n`;
        return `${where}${found.join('\n')}${more ? `\n[stopped at ${FIND_MAX_RESULTS} paths; narrow the pattern or the folder]` : ''}`;
      }),
  };
}
