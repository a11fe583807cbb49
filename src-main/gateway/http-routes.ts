import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildControlUiPolicy, CANVAS_PATH, controlUiHeaders } from '../protocol/control-ui-policy.js';
import { canvasEmptyPage } from './canvas-empty-page.js';
import { CompressedBodyCache } from './compressed-assets.js';
import { CONTROL_UI_CONFIG_PATHS, controlUiConfig } from './control-ui-config.js';
import { createInlineScriptHashes } from './inline-script-hashes.js';
import { contentTypeFor, resolveInside, sendFile } from './static-files.js';

export interface HttpRoutesOptions {
  /** Built Control UI (dist/renderer); a placeholder page is served when absent. */
  controlUiDir?: string;
  /** The workspace's canvas folder, served under /__hearth__/canvas/. */
  canvasDir(): string;
  version: string;
  /** Served over https (the LAN listener): the page's origin, hence its policy, says so. */
  tls?: boolean;
}

const CANVAS_PREFIX = CANVAS_PATH;
/** The agent writes the canvas folder: no file in it may be a second name of a file elsewhere. */
const CANVAS_FILES = { refuseHardLinks: true };

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(JSON.stringify(body));
}

const PLACEHOLDER = `<!doctype html><meta charset="utf-8"><title>Hearth</title>
<style>body{font:16px system-ui;margin:4rem auto;max-width:36rem;color:#222}code{background:#f3f3f3;padding:.1em .3em}</style>
<h1>Hearth gateway is running</h1><p>The Control UI has not been built yet. Run <code>npm run build:renderer</code> and reload.</p>`;

/** HTTP side of the one port: health probes, the Control UI, and the agent's canvas. */
export function createHttpHandler(options: HttpRoutesOptions) {
  const scriptHashesOf = createInlineScriptHashes();
  const compressed = new CompressedBodyCache();
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://gateway.invalid');
    const path = url.pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' });
      response.end();
      return;
    }
    if (path === '/health' || path === '/healthz') return json(response, 200, { ok: true, status: 'live' });
    // OpenClaw's Control UI (served with gateway.controlUi.root) reads its runtime settings here.
    if (CONTROL_UI_CONFIG_PATHS.has(path)) return json(response, 200, controlUiConfig({ version: options.version }));

    if (path.startsWith(CANVAS_PREFIX) || path === '/__hearth__/canvas') {
      const file = await resolveInside(options.canvasDir(), path.slice(CANVAS_PREFIX.length), CANVAS_FILES);
      if (!file) {
        // Nothing there (an empty canvas, or a page the agent has not written): a page, not JSON.
        response.writeHead(404, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': 'sandbox allow-scripts',
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
          'x-content-type-options': 'nosniff',
        });
        response.end(request.method === 'HEAD' ? undefined : canvasEmptyPage(url.searchParams.get('theme')));
        return;
      }
      // The canvas is the agent's page: give it an opaque origin even if opened directly.
      return sendFile(
        response,
        file,
        {
          'content-security-policy': 'sandbox allow-scripts allow-forms',
          'cache-control': 'no-cache',
          'referrer-policy': 'no-referrer',
        },
        { ...CANVAS_FILES, within: options.canvasDir() },
      );
    }

    // The server checked Host against the listener's own names before this ran, so the origin is ours.
    const pageOrigin = new URL(`${options.tls ? 'https' : 'http'}://${request.headers.host ?? 'localhost'}`).origin;
    const uiHeaders = controlUiHeaders(buildControlUiPolicy({ gatewayOrigin: pageOrigin }));
    if (options.controlUiDir) {
      const file =
        (await resolveInside(options.controlUiDir, path)) ??
        (path.includes('.') ? undefined : await resolveInside(options.controlUiDir, '/index.html'));
      if (file) {
        const immutable = file.includes(`${'/assets/'}`);
        const headers = contentTypeFor(file).startsWith('text/html')
          ? controlUiHeaders(
              buildControlUiPolicy({ gatewayOrigin: pageOrigin, inlineScriptHashes: await scriptHashesOf(file) }),
            )
          : uiHeaders;
        return sendFile(
          response,
          file,
          { ...headers, 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache' },
          { within: options.controlUiDir },
          { headers: request.headers, cache: compressed },
        );
      }
      if (path.includes('.')) return json(response, 404, { ok: false, error: 'not found' });
    }
    response.writeHead(200, { ...uiHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    response.end(PLACEHOLDER);
  };
}
