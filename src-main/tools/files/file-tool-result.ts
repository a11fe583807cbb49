import type { ToolOutput } from '../tool.js';
import { FileToolError } from './file-access.js';

/**
 * Runs a file tool's body and turns what can go wrong into an error result the model can act
 * on: refusals say why, missing files and wrong kinds say what was wrong with which path.
 */
export async function fileToolResult(shown: string, body: () => Promise<string>): Promise<ToolOutput> {
  try {
    return { output: await body() };
  } catch (error) {
    if (error instanceof FileToolError) return { output: error.message, isError: true };
    const code = (error as NodeJS.ErrnoException).code;
    const what = errnoText[code ?? ''];
    if (what) return { output: `${shown}: ${what}`, isError: true };
    throw error;
  }
}

const errnoText: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'is a folder, not a file (list it instead)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'path too long',
  EEXIST: 'already exists',
};
