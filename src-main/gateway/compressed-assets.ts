import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Compression for the Control UI's files. The JavaScript alone is ~550 KB, which a phone on
 * Wi-Fi feels on every cold load; brotli makes it ~150 KB. The build writes `.br` and `.gz`
 * beside each asset at the highest level (`scripts/precompress.mjs`); a folder without them
 * (OpenClaw's UI under `gateway.controlUi.root`) is compressed here on first request, at a
 * fast level, and kept in a small cache keyed by the file's identity.
 */

export type ContentEncoding = 'br' | 'gzip';

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|manifest\+json|wasm)|image\/svg\+xml)/;
/** Below this a compressed answer saves less than its headers cost. */
export const MIN_COMPRESS_BYTES = 1024;

export function isCompressible(contentType: string, size: number): boolean {
  return size >= MIN_COMPRESS_BYTES && COMPRESSIBLE.test(contentType);
}

/**
 * The best encoding the client accepts, brotli first: `Accept-Encoding: gzip, deflate, br`.
 * A coding given `q=0` is refused, as the header's grammar says.
 */
export function preferredEncoding(headers: IncomingHttpHeaders): ContentEncoding | undefined {
  const header = headers['accept-encoding'];
  if (typeof header !== 'string' || header === '') return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: ContentEncoding) => accepted.get(coding) ?? accepted.get('*') ?? 0;
  if (weightOf('br') > 0 && weightOf('br') >= weightOf('gzip')) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return undefined;
}

/** The file extension the build gives a precompressed sibling. */
export function siblingSuffix(encoding: ContentEncoding): string {
  return encoding === 'br' ? '.br' : '.gz';
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function compress(body: Buffer, encoding: ContentEncoding, level: 'fast' | 'best'): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: level === 'best' ? constants.BROTLI_MAX_QUALITY : 5,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: level === 'best' ? constants.Z_BEST_COMPRESSION : 6 });
}

/** Compressed bodies of files without precompressed siblings, least recently used dropped first. */
export class CompressedBodyCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = 16 * 1024 * 1024) {}

  /** `identity`: what changes when the file does (path, size, mtime, inode). */
  async get(identity: string, encoding: ContentEncoding, read: () => Promise<Buffer>): Promise<Buffer> {
    const key = `${encoding}\0${identity}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const body = await compress(await read(), encoding, 'fast');
    if (body.length <= this.maxBytes) {
      this.entries.set(key, body);
      this.bytes += body.length;
      for (const [oldKey, old] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.entries.delete(oldKey);
        this.bytes -= old.length;
      }
    }
    return body;
  }
}
