import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import type { ChannelOutboundFile } from '../plugins/sdk/channels.js';
import type { ToolDefinition } from '../tools/tool.js';

/** Image types sent as photos (shown inline); anything else goes as a document. */
const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};
const DOCUMENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.html': 'text/html',
};
/** Read no more than this whatever the channel (the largest any channel plugin takes is well below). */
const HARD_CAP_BYTES = 100 * 1024 * 1024;

const input = z.object({
  path: z.string().min(1).describe('The file, relative to your workspace (or absolute inside it)'),
  caption: z.string().max(1000).optional().describe('A short text shown with the file'),
});

/** The conversation's channel takes the file (checks its media kinds and size limit) or throws why not. */
export type SendChannelFile = (sessionKey: string, file: ChannelOutboundFile) => Promise<string>;

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
};

/**
 * `channel_send_file`: the agent sends a photo or document from its workspace into the channel
 * conversation this run answers (Telegram, Discord, Slack). Only a file inside the workspace
 * (symlinks resolved) may go; the chat is never named by the model, it is the run's own.
 */
export function createChannelSendFileTool(send: SendChannelFile): ToolDefinition<z.infer<typeof input>> {
  return {
    name: 'channel_send_file',
    description:
      'Send a file from your workspace (a photo or a document) into the channel chat this conversation is on (Telegram, Discord, Slack).',
    inputSchema: input,
    source: 'channel',
    async execute({ path, caption }, context) {
      const fail = (output: string) => ({ output, isError: true });
      if (path.includes('\0')) return fail('path must not contain a NUL character');
      let workspace: string;
      let real: string;
      try {
        workspace = await realpath(resolve(context.workspaceDir));
        real = await realpath(resolve(workspace, path));
      } catch {
        return fail(`no file ${path} in the workspace`);
      }
      if (!inside(workspace, real))
        return fail(`refused: ${path} is outside the workspace; only files in the workspace can be sent to a channel`);
      const info = await stat(real);
      if (!info.isFile()) return fail(`${path} is not a file`);
      if (info.size === 0) return fail(`${path} is empty`);
      if (info.size > HARD_CAP_BYTES) return fail(`${path} is ${info.size} bytes, too large to send to any channel`);
      const extension = extname(real).toLowerCase();
      const image = IMAGE_TYPES[extension];
      const file: ChannelOutboundFile = {
        kind: image ? 'image' : 'document',
        name: basename(real),
        mediaType: image ?? DOCUMENT_TYPES[extension] ?? 'application/octet-stream',
        data: new Uint8Array(await readFile(real)),
        ...(caption?.trim() ? { caption: caption.trim() } : {}),
      };
      try {
        return { output: await send(context.sessionKey, file) };
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
    },
  };
}
