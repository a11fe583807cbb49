import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './app-origin.js';

/** Electron's `protocol.registerSchemesAsPrivileged` entry: must run before `app.ready`. */
export const appSchemePrivileges = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
};

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

export interface AppProtocolOptions {
  /** The built Control UI (dist/renderer). */
  rendererDir: string;
  contentSecurityPolicy: string;
}

/**
 * Serves the built renderer on app://hearth/. Only files under `rendererDir` are
 * reachable (no `..`, no other host), every answer carries the CSP, and unknown
 * routes fall back to index.html so client-side routes survive a reload.
 */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const root = resolve(options.rendererDir);
  const headers = (type: string) => ({
    'Content-Type': type,
    'Content-Security-Policy': options.contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
  });
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return new Response('bad url', { status: 400 });
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return new Response('not found', { status: 404 });
    const relative = decodeURIComponent(url.pathname).replace(/^\/+/, '') || 'index.html';
    const path = resolve(root, relative);
    if (path !== root && !path.startsWith(root + sep)) return new Response('forbidden', { status: 403 });
    const extension = extname(path);
    try {
      const body = await readFile(path);
      return new Response(body, { headers: headers(contentTypes[extension] ?? 'application/octet-stream') });
    } catch {
      // An asset that is missing is a 404; a route is the single-page app's business.
      if (extension !== '' && extension !== '.html') return new Response('not found', { status: 404 });
      const index = await readFile(resolve(root, 'index.html'));
      return new Response(index, { headers: headers(contentTypes['.html']!) });
    }
  };
}
