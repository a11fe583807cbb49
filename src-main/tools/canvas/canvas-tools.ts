import { extname, join } from 'node:path';
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../tool.js';
import {
  CanvasPathError,
  clearCanvas,
  IMAGE_EXTENSIONS,
  listCanvas,
  readCanvasFile,
  writeCanvasFile,
} from './canvas-path.js';

/** Largest file canvas_write takes (a page with inlined images fits; a video does not). */
export const CANVAS_MAX_WRITE_BYTES = 5 * 1024 * 1024;
/** Characters of a file canvas_read returns. */
export const CANVAS_MAX_READ_CHARS = 100_000;
const LIST_LIMIT = 200;

/** The agent's canvas folder: `<workspace>/canvas` (served at /__hearth__/canvas/, watched for the Canvas view). */
export function canvasDirOf(context: Pick<ToolContext, 'workspaceDir'>): string {
  return join(context.workspaceDir, 'canvas');
}

const CANVAS_LINE =
  'You have a canvas the person sees live in the Canvas view (index.html is shown; link other files from it): draw on it with canvas_write.';

function failure(error: unknown): ToolOutput {
  if (error instanceof CanvasPathError) return { output: `refused: ${error.message}`, isError: true };
  return { output: `canvas error: ${(error as Error).message}`, isError: true };
}

/**
 * The canvas tools. They act only inside the agent's canvas folder (no symlinks, no hard links,
 * no `..`), so they need no exec approval; the host's canvas watcher tells the Canvas view.
 */
export function createCanvasTools(): ToolDefinition[] {
  const writeInput = z
    .object({
      path: z.string().min(1).max(300).describe('inside the canvas, e.g. "index.html", "img/chart.png"'),
      content: z.string().max(CANVAS_MAX_WRITE_BYTES * 2),
      encoding: z.enum(['utf8', 'base64']).optional().describe('base64 for images; default utf8'),
    })
    .strict();
  const write: ToolDefinition<z.infer<typeof writeInput>> = {
    name: 'canvas_write',
    description: 'Write a file (HTML, markdown, CSS, JS, SVG, image) on the canvas; the Canvas view updates live.',
    promptLine: CANVAS_LINE,
    inputSchema: writeInput,
    async execute(input, context) {
      const extension = extname(input.path).toLowerCase();
      const encoding = input.encoding ?? 'utf8';
      if (IMAGE_EXTENSIONS.has(extension) && encoding !== 'base64') {
        return { output: `refused: ${input.path} is an image: send its bytes with encoding "base64"`, isError: true };
      }
      const data = Buffer.from(input.content, encoding);
      if (data.length > CANVAS_MAX_WRITE_BYTES) {
        return {
          output: `refused: ${input.path} would be ${data.length} bytes; the canvas takes files up to ${CANVAS_MAX_WRITE_BYTES}`,
          isError: true,
        };
      }
      try {
        await writeCanvasFile(canvasDirOf(context), input.path, data);
        return { output: `Wrote canvas/${input.path} (${data.length} bytes).` };
      } catch (error) {
        return failure(error);
      }
    },
  };

  const readInput = z
    .object({ path: z.string().min(1).max(300).optional().describe('a file; omit to list the canvas') })
    .strict();
  const read: ToolDefinition<z.infer<typeof readInput>> = {
    name: 'canvas_read',
    description: 'Read a canvas file, or list the canvas without a path.',
    inputSchema: readInput,
    async execute(input, context) {
      try {
        if (input.path === undefined) {
          const files = await listCanvas(canvasDirOf(context), LIST_LIMIT + 1);
          if (files.length === 0) return { output: 'The canvas is empty.' };
          const shown = files
            .slice(0, LIST_LIMIT)
            .map((f) => `${f.path} (${f.size} bytes${f.note ? `, ${f.note}` : ''})`);
          return {
            output: `${shown.join('\n')}${files.length > LIST_LIMIT ? `\n(more than ${LIST_LIMIT} files)` : ''}`,
          };
        }
        const extension = extname(input.path).toLowerCase();
        const { data, size } = await readCanvasFile(canvasDirOf(context), input.path, CANVAS_MAX_READ_CHARS * 4);
        if (IMAGE_EXTENSIONS.has(extension))
          return { output: `${input.path}: ${extension.slice(1)} image, ${size} bytes` };
        const text = data.toString('utf8');
        if (text.length <= CANVAS_MAX_READ_CHARS && data.length === size) return { output: text };
        return {
          output: `${text.slice(0, CANVAS_MAX_READ_CHARS)}\n[cut: ${input.path} is ${size} bytes; the first ${CANVAS_MAX_READ_CHARS} characters are shown]`,
        };
      } catch (error) {
        return failure(error);
      }
    },
  };

  const clearInput = z
    .object({ path: z.string().min(1).max(300).optional().describe('a file or folder; omit to clear everything') })
    .strict();
  const clear: ToolDefinition<z.infer<typeof clearInput>> = {
    name: 'canvas_clear',
    description: 'Delete a canvas file or folder, or everything on the canvas without a path.',
    inputSchema: clearInput,
    async execute(input, context) {
      try {
        const removed = await clearCanvas(canvasDirOf(context), input.path);
        return { output: input.path ? `Removed canvas/${input.path}.` : `Cleared the canvas (${removed} entries).` };
      } catch (error) {
        return failure(error);
      }
    },
  };
  return [write, read, clear] as ToolDefinition[];
}
