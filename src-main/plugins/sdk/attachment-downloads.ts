import type { ChannelAttachment } from './channels.js';

// Files that came with a channel message, fetched for the model. A file over the cap, or one that
// cannot be fetched, is named in a note the model reads instead ("[report.pdf was attached, but…]"),
// so it knows something was sent and the turn still runs.

/** A file a message carries, as the plugin read it from the platform's message. */
export interface AttachmentRef {
  /** The file name, when the platform gave one. */
  name?: string;
  mediaType: string;
  /** The size the platform reported, when it did: a file over the cap is not fetched at all. */
  size?: number;
  /** Default: `image` for an image/* media type, else `file`. */
  kind?: ChannelAttachment['kind'];
}

export interface AttachmentDownloadOptions<Ref extends AttachmentRef> {
  /** Largest file handed to the model. */
  maxBytes: number;
  /** Fetches one file's bytes (the plugin's own download: its auth, its URLs); may refuse over `maxBytes`. */
  download(ref: Ref): Promise<Uint8Array>;
  /** Why a download failed, in words (default: the error's message). */
  describe?(error: unknown): string;
}

/** Downloads `refs` into attachments; what could not be read is named in `notes`. */
export async function downloadAttachments<Ref extends AttachmentRef>(
  refs: readonly Ref[],
  options: AttachmentDownloadOptions<Ref>,
): Promise<{ attachments: ChannelAttachment[]; notes: string[] }> {
  const attachments: ChannelAttachment[] = [];
  const notes: string[] = [];
  for (const ref of refs) {
    const kind = ref.kind ?? (ref.mediaType.startsWith('image/') ? 'image' : 'file');
    const label = ref.name ?? (kind === 'image' ? 'a photo' : 'a file');
    if (ref.size !== undefined && ref.size > options.maxBytes) {
      notes.push(`[${label} was attached, but it is over ${options.maxBytes / 1024 / 1024} MB and was not read]`);
      continue;
    }
    try {
      const bytes = await options.download(ref);
      if (bytes.length > options.maxBytes) throw new Error(`it is ${bytes.length} bytes, over ${options.maxBytes}`);
      attachments.push({
        kind,
        mediaType: ref.mediaType,
        ...(ref.name !== undefined ? { name: ref.name } : {}),
        data: Buffer.from(bytes).toString('base64'),
      });
    } catch (error) {
      const why = options.describe ? options.describe(error) : error instanceof Error ? error.message : String(error);
      notes.push(`[${label} was attached, but it could not be downloaded: ${why}]`);
    }
  }
  return { attachments, notes };
}
