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

/** How much of a file is read to find its dimensions: a JPEG's size comes after its EXIF block. */
const HEADER_BYTES = 256 * 1024;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height from an image's header (PNG IHDR, GIF screen, JPEG SOFn, WebP VP8/VP8L/VP8X);
 * undefined when the header does not say (a truncated or odd file): the size is a courtesy in a
 * note, never a reason to fail.
 */
export function imageDimensions(bytes: Uint8Array, mediaType: ImageKind['mediaType']): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (end: number) => end <= bytes.length;
  const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  switch (mediaType) {
    case 'image/png':
      return has(24) ? size(view.getUint32(16), view.getUint32(20)) : undefined;
    case 'image/gif':
      return has(10) ? size(view.getUint16(6, true), view.getUint16(8, true)) : undefined;
    case 'image/webp': {
      if (!has(25)) return undefined;
      const chunk = String.fromCharCode(...bytes.subarray(12, 16));
      if (chunk === 'VP8L') {
        const bits = view.getUint32(21, true);
        return size((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
      }
      if (!has(30)) return undefined;
      if (chunk === 'VP8 ') return size(view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
      if (chunk === 'VP8X') {
        const w = bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16);
        const h = bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16);
        return size(w + 1, h + 1);
      }
      return undefined;
    }
    case 'image/jpeg': {
      // Walk the marker segments to the first start-of-frame (C0–CF but not C4, C8, CC).
      let at = 2;
      while (has(at + 4)) {
        if (bytes[at] !== 0xff) return undefined;
        const marker = bytes[at + 1]!;
        if (marker === 0xff) {
          at += 1;
          continue;
        }
        const length = view.getUint16(at + 2);
        const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
        if (isFrame) return has(at + 9) ? size(view.getUint16(at + 7), view.getUint16(at + 5)) : undefined;
        at += 2 + length;
      }
      return undefined;
    }
  }
}

/** The dimensions of the image file at `path`, from its first 256 KB. */
export async function readImageDimensions(path: string, kind: ImageKind): Promise<ImageSize | undefined> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(HEADER_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return imageDimensions(head.subarray(0, bytesRead), kind.mediaType);
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
