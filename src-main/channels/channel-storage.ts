import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ChannelStorage } from '../plugins/sdk/channels.js';

/** The document is the channel's own: the host only checks that it is a JSON object. */
const documentSchema: z.ZodType<Record<string, unknown>> = z.record(z.string(), z.unknown());

/**
 * A channel's small JSON document (`state/channels/<id>.json`, e.g. Telegram's update offset).
 * A missing file is an empty document; one that is not a JSON object fails naming the file, so
 * the channel reports it instead of starting over (a lost offset answers old messages again),
 * and the file is left as it is.
 */
export function channelStorageAt(file: string): ChannelStorage {
  const unreadable = (why: string) =>
    new Error(`channel storage ${file} cannot be read (${why}); it was left as it is: fix or move it`);
  return {
    read: async () => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
        throw unreadable((error as Error).message);
      }
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw unreadable(`not JSON: ${(error as Error).message}`);
      }
      const parsed = documentSchema.safeParse(raw);
      if (!parsed.success) throw unreadable(`not a JSON object: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return parsed.data;
    },
    // Written after every update, so no fsync: a rename keeps the file whole, and after a power
    // loss the worst case is an older offset (a message answered twice), never a lost one.
    write: async (value) => {
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(value), { mode: 0o600 });
      await rename(temp, file);
    },
  };
}
