import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

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

/**
 * Resolves a URL path inside `root`, refusing anything that escapes it: `..`,
 * encoded separators, NUL bytes, and symlinks pointing outside. Returns undefined
 * for a refusal or a missing file.
 */
export async function resolveInside(root: string, urlPath: string): Promise<string | undefined> {
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
    return fileInfo.isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

export function sendFile(response: ServerResponse, path: string, headers: Record<string, string> = {}): void {
  response.writeHead(200, { 'content-type': contentTypeFor(path), 'x-content-type-options': 'nosniff', ...headers });
  createReadStream(path)
    .on('error', () => response.destroy())
    .pipe(response);
}

export function isWithin(root: string, path: string): boolean {
  const r = resolve(root);
  const p = resolve(path);
  return p === r || p.startsWith(r + sep);
}
