import { open } from 'node:fs/promises';

/** Images a model can be shown, told by their first bytes (never by the name). */
export interface ImageKind {
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  label: string;
}

/**
 * The largest image read returns: 3.75 MB is 5 MB in base64, the smallest per-image limit of
 * the providers we send to (Anthropic's). Larger ones are refused with how to shrink them.
 */
export const IMAGE_MAX_BYTES = 3.75 * 1024 * 1024;

const ascii = (bytes: Uint8Array, from: number, text: string) =>
  [...text].every((char, index) => bytes[from + index] === char.charCodeAt(0));

export function imageKind(bytes: Uint8Array): ImageKind | undefined {
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, index) => bytes[index] === byte))
    return { mediaType: 'image/png', label: 'PNG image' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { mediaType: 'image/jpeg', label: 'JPEG image' };
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return { mediaType: 'image/gif', label: 'GIF image' };
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return { mediaType: 'image/webp', label: 'WebP image' };
  return undefined;
}

/** The image kind of the file at `path`, from its first 16 bytes. */
export async function sniffImage(path: string): Promise<ImageKind | undefined> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return imageKind(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** "12 KB", "1.4 MB": sizes in messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
