import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveInside, sendFile } from './static-files.js';

export interface HttpRoutesOptions {
  /** Built Control UI (dist/renderer); a placeholder page is served when absent. */
  controlUiDir?: string;
  /** The workspace's canvas folder, served under /__hearth__/canvas/. */
  canvasDir(): string;
  version: string;
}

const CANVAS_PREFIX = '/__hearth__/canvas/';

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

const PLACEHOLDER = `<!doctype html><meta charset="utf-8"><title>Hearth</title>
<style>body{font:16px system-ui;margin:4rem auto;max-width:36rem;color:#222}code{background:#f3f3f3;padding:.1em .3em}</style>
<h1>Hearth gateway is running</h1><p>The Control UI has not been built yet. Run <code>npm run build:renderer</code> and reload.</p>`;

/** HTTP side of the one port: health probes, the Control UI, and the agent's canvas. */
export function createHttpHandler(options: HttpRoutesOptions) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://gateway.invalid');
    const path = url.pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' });
      response.end();
      return;
    }
    if (path === '/health' || path === '/healthz') return json(response, 200, { ok: true, status: 'live' });

    if (path.startsWith(CANVAS_PREFIX) || path === '/__hearth__/canvas') {
      const file = await resolveInside(options.canvasDir(), path.slice(CANVAS_PREFIX.length));
      if (!file) return json(response, 404, { ok: false, error: 'not found' });
      // The canvas is the agent's page: give it an opaque origin even if opened directly.
      return sendFile(response, file, {
        'content-security-policy': 'sandbox allow-scripts allow-forms',
        'cache-control': 'no-cache',
      });
    }

    if (options.controlUiDir) {
      const file =
        (await resolveInside(options.controlUiDir, path)) ??
        (path.includes('.') ? undefined : await resolveInside(options.controlUiDir, '/index.html'));
      if (file) {
        const immutable = file.includes(`${'/assets/'}`);
        return sendFile(response, file, {
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          'referrer-policy': 'no-referrer',
          'x-frame-options': 'DENY',
        });
      }
      if (path.includes('.')) return json(response, 404, { ok: false, error: 'not found' });
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(PLACEHOLDER);
  };
}
