import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { ToolDefinition } from '../tool.js';
import { type FileAccess, FileToolError } from './file-access.js';
import { fileToolResult } from './file-tool-result.js';
import { nonEmpty } from './tool-input.js';

export const writeToolInputSchema = z.object({ path: nonEmpty('path'), content: z.string() });
export type WriteToolInput = z.infer<typeof writeToolInputSchema>;

/** `write`: creates or replaces a whole file (folders made as needed), atomically. */
export function createWriteTool(access: FileAccess): ToolDefinition<WriteToolInput> {
  return {
    name: 'write',
    description: 'Create or overwrite a file with content.',
    inputSchema: writeToolInputSchema,
    execute: (input, context) =>
      fileToolResult(input.path, async () => {
        const { path, shown } = await access.check(input.path, 'write', 'write', context);
        const before = await stat(path).catch(() => undefined);
        if (before?.isDirectory()) throw new FileToolError(`${shown} is a folder; give a file path`);
        await writeFileAtomic(path, input.content, before ? before.mode & 0o7777 : 0o644);
        const bytes = Buffer.byteLength(input.content);
        return `${before ? 'replaced' : 'created'} ${shown} (${bytes} bytes)`;
      }),
  };
}
