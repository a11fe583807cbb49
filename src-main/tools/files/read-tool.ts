import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutput } from '../tool.js';
import { type FileAccess, FileToolError } from './file-access.js';
import { fileToolResult } from './file-tool-result.js';
import { formatBytes, IMAGE_MAX_BYTES, readImageDimensions, sniffImage } from './image-file.js';
import { assertTextFile } from './text-file.js';
import { nonEmpty, positiveWhole } from './tool-input.js';

export const readToolInputSchema = z.object({
  path: nonEmpty('path'),
  offset: positiveWhole('offset').optional(),
  limit: positiveWhole('limit').optional(),
});
export type ReadToolInput = z.infer<typeof readToolInputSchema>;

export const READ_DEFAULT_LINES = 2_000;
/** A line range is also cut at this many characters, so one call stays within a tool result. */
export const READ_MAX_CHARS = 60_000;
/** Beyond this size the total line count is not worth a full scan. */
const COUNT_LINES_UP_TO_BYTES = 32 * 1024 * 1024;

export interface ReadToolOptions {
  /**
   * Why the model of this call (`context.modelRef`) would not see an image, e.g. "the model
   * x/y takes text only"; undefined when it would. An image it cannot see is described instead
   * of sent (its bytes would be an API error or, on Chat Completions, base64 as text). Default: sent.
   */
  imagesNotShown?(context: Pick<ToolContext, 'agentId' | 'modelRef'>): string | undefined;
}

/**
 * `read`: a text file, or a range of its lines. A PNG, JPEG, GIF or WebP (by its first bytes)
 * comes back as an image to a model that takes images; other binary files are refused with
 * what they are.
 */
export function createReadTool(access: FileAccess, options: ReadToolOptions = {}): ToolDefinition<ReadToolInput> {
  return {
    name: 'read',
    description: 'Read a text file (offset: first line, limit: lines) or an image.',
    inputSchema: readToolInputSchema,
    execute: async (input, context) => {
      let image: ToolOutput['images'];
      const result = await fileToolResult(input.path, async () => {
        const { path, shown } = await access.check(input.path, 'read', 'read', context);
        const info = await stat(path);
        if (info.isDirectory()) throw new FileToolError(`${shown} is a folder; use list to see what is in it`);
        const kind = await sniffImage(path);
        if (kind) {
          const what = `${shown}: ${kind.label}, ${formatBytes(info.size)}`;
          const notShown = options.imagesNotShown?.(context);
          if (notShown) {
            const dimensions = await readImageDimensions(path, kind);
            const pixels = dimensions ? `, ${dimensions.width}×${dimensions.height} pixels` : '';
            return `${what}${pixels}. Not shown: ${notShown}; you cannot see this image, so say so rather than guess what is in it`;
          }
          if (info.size > IMAGE_MAX_BYTES)
            throw new FileToolError(
              `refused: ${shown} is a ${kind.label} of ${formatBytes(info.size)}, over the ${formatBytes(IMAGE_MAX_BYTES)} an image may be; make a smaller copy with exec (e.g. convert -resize 50%) and read that`,
            );
          image = [{ mediaType: kind.mediaType, data: (await readFile(path)).toString('base64') }];
          return what;
        }
        await assertTextFile(path, shown, 'read');
        return readLines(path, shown, input.offset ?? 1, input.limit ?? READ_DEFAULT_LINES, info.size, context.signal);
      });
      return image && !result.isError ? { ...result, images: image } : result;
    },
  };
}

async function readLines(
  path: string,
  shown: string,
  first: number,
  limit: number,
  size: number,
  signal: AbortSignal,
): Promise<string> {
  const stream = createReadStream(path, { encoding: 'utf8', signal });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const kept: string[] = [];
  let chars = 0;
  let lineNo = 0;
  let lastKept = first - 1;
  let stoppedEarly = false;
  try {
    for await (const line of lines) {
      lineNo += 1;
      if (lineNo < first) continue;
      const full = kept.length >= limit || chars + line.length > READ_MAX_CHARS;
      if (full && kept.length > 0) {
        if (size > COUNT_LINES_UP_TO_BYTES) {
          stoppedEarly = true;
          break;
        }
        continue;
      }
      // One line longer than a whole read (minified code) is cut rather than sent whole.
      kept.push(
        line.length > READ_MAX_CHARS
          ? `${line.slice(0, READ_MAX_CHARS)} [… line cut at ${READ_MAX_CHARS} of ${line.length} characters]`
          : line,
      );
      chars += Math.min(line.length, READ_MAX_CHARS) + 1;
      lastKept = lineNo;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (lineNo === 0) return `(${shown} is empty)`;
  if (first > lineNo) throw new FileToolError(`${shown} has ${lineNo} lines; offset ${first} is past its end`);
  const body = kept.join('\n');
  const total = stoppedEarly ? 'more' : String(lineNo);
  if (first === 1 && lastKept === lineNo && !stoppedEarly) return body;
  const more = stoppedEarly || lastKept < lineNo ? `; read on with offset ${lastKept + 1}` : '';
  return `${body}\n[lines ${first}–${lastKept} of ${total} in ${shown}${more}]`;
}
