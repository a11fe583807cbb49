import { constants, createReadStream } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import {
  type CompressedBodyCache,
  type ContentEncoding,
  isCompressible,
  preferredEncoding,
  siblingSuffix,
} from './compressed-assets.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export interface ResolveOptions {
  /**
   * Refuse regular files with more than one hard link. A hard link is the same inode under
   * a second name, and nothing in the folder tells where the other names live: `ln
   * ~/.ssh/id_ed25519 canvas/x` would otherwise publish the key. Used for the canvas, a
   * folder the agent writes; see docs/SECURITY.md "Canvas".
   */
  refuseHardLinks?: boolean;
  /**
   * When sending: the folder the opened file must still be in. Checked on the open
   * descriptor itself, so a directory swapped for a symlink between resolving and opening
   * (O_NOFOLLOW guards only the last component) cannot lead out.
   */
  within?: string;
}

/**
 * Resolves a URL path inside `root`, refusing anything that escapes it: `..`,
 * encoded separators, NUL bytes, and symlinks pointing outside (and, on request,
 * hard-linked files). Returns undefined for a refusal or a missing file.
 */
export async function resolveInside(
  root: string,
  urlPath: string,
  options: ResolveOptions = {},
): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return undefined;
  const rootReal = await realpath(root).catch(() => undefined);
  if (!rootReal) return undefined;
  let candidate = join(rootReal, ...segments);
  try {
    const info = await stat(candidate);
    if (info.isDirectory()) candidate = join(candidate, 'index.html');
    const real = await realpath(candidate);
    if (real !== rootReal && !real.startsWith(rootReal + sep)) return undefined;
    const fileInfo = await stat(real);
    if (!fileInfo.isFile()) return undefined;
    if (options.refuseHardLinks && fileInfo.nlink > 1) return undefined;
    return real;
  } catch {
    return undefined;
  }
}

/**
 * Opens a file `resolveInside` chose, without following a symlink swapped in since, and
 * checks again on the open descriptor that it is a regular file (single-linked on request).
 */
async function openChecked(path: string, options: ResolveOptions): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  const info = await handle.stat();
  const refused =
    !info.isFile() ||
    (options.refuseHardLinks && info.nlink > 1) ||
    (options.within !== undefined && !(await openedInside(handle, path, info, options.within)));
  if (refused) {
    await handle.close();
    return undefined;
  }
  return handle;
}

/** Where the descriptor really points: /proc names it on Linux; elsewhere the path must still be that very inode. */
async function openedInside(
  handle: FileHandle,
  path: string,
  info: { dev: number; ino: number },
  root: string,
): Promise<boolean> {
  const rootReal = await realpath(root).catch(() => undefined);
  if (!rootReal) return false;
  const actual = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (actual !== undefined) return actual.startsWith(rootReal + sep);
  const real = await realpath(path).catch(() => undefined);
  if (!real?.startsWith(rootReal + sep)) return false;
  const now = await stat(real).catch(() => undefined);
  return now !== undefined && now.dev === info.dev && now.ino === info.ino;
}

/** What `sendFile` needs to answer compressed: the request's headers and the cache for files without siblings. */
export interface Negotiation {
  headers: IncomingHttpHeaders;
  cache: CompressedBodyCache;
}

/**
 * Streams a resolved file; answers 404 when it changed into something refused since it was resolved.
 * With `negotiation`, a compressible file goes out brotli- or gzip-encoded when the client takes
 * it: from the build's `.br` / `.gz` sibling when one is there and not older than the file,
 * else compressed here once and cached.
 */
export async function sendFile(
  response: ServerResponse,
  path: string,
  headers: Record<string, string> = {},
  options: ResolveOptions = {},
  negotiation?: Negotiation,
): Promise<void> {
  const handle = await openChecked(path, options);
  if (!handle) {
    response.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' });
    response.end(JSON.stringify({ ok: false, error: 'not found' }));
    return;
  }
  const type = contentTypeFor(path);
  const base = { 'content-type': type, 'x-content-type-options': 'nosniff', ...headers };
  const info = await handle.stat();
  if (negotiation && isCompressible(type, info.size)) {
    const encoding = preferredEncoding(negotiation.headers);
    const varying = { ...base, vary: 'accept-encoding' };
    if (!encoding) return stream(response, handle, { ...varying, 'content-length': String(info.size) });
    const sibling = await openChecked(path + siblingSuffix(encoding), options);
    const siblingInfo = await sibling?.stat();
    if (sibling && siblingInfo && siblingInfo.mtimeMs >= info.mtimeMs) {
      await handle.close();
      return stream(response, sibling, encoded(varying, encoding, siblingInfo.size));
    }
    await sibling?.close();
    let body: Buffer;
    try {
      body = await negotiation.cache.get(`${path}\0${info.size}\0${info.mtimeMs}\0${info.ino}`, encoding, () =>
        handle.readFile(),
      );
    } finally {
      await handle.close();
    }
    response.writeHead(200, encoded(varying, encoding, body.length));
    response.end(body);
    return;
  }
  stream(response, handle, { ...base, 'content-length': String(info.size) });
}

function encoded(headers: Record<string, string>, encoding: ContentEncoding, size: number): Record<string, string> {
  return { ...headers, 'content-encoding': encoding, 'content-length': String(size) };
}

function stream(response: ServerResponse, handle: FileHandle, headers: Record<string, string>): void {
  response.writeHead(200, headers);
  createReadStream('', { fd: handle, autoClose: true })
    .on('error', () => response.destroy())
    .pipe(response);
}

export function isWithin(root: string, path: string): boolean {
  const r = resolve(root);
  const p = resolve(path);
  return p === r || p.startsWith(r + sep);
}
