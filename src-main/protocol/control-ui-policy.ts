/**
 * The one Content-Security-Policy of the Control UI, wherever it runs: the Electron
 * window (app://hearth, set by src-main/app/csp.ts) and the browser (served by the
 * gateway, set by src-main/gateway/http-routes.ts). Pure strings, no Node or DOM, so
 * both shells import it from here. See docs/SECURITY.md "Browser surface".
 */

/** Where the gateway serves the agent's canvas; the only page the UI may frame. */
export const CANVAS_PATH = '/__hearth__/canvas/';

export interface ControlUiPolicyOptions {
  /**
   * The gateway's origin (http(s)://host:port): the socket the UI talks to and the canvas'
   * home. Absent: no frames at all and no network beyond 'self'.
   */
  gatewayOrigin?: string;
  /** Vite dev server origin in development (its HMR socket and module URLs). */
  devServerOrigin?: string;
  /**
   * `'sha256-…'` sources of the inline scripts the served page itself contains (none in
   * Hearth's own UI); they allow exactly those scripts, never inline script in general.
   */
  inlineScriptHashes?: readonly string[];
}

/**
 * Scripts only from the UI itself (no eval, no inline), network only to the UI and the
 * gateway, frames only for the canvas path of the gateway, no plugins, no <base> games,
 * no form posts away, and nobody may frame the UI.
 */
export function buildControlUiPolicy(options: ControlUiPolicyOptions = {}): string {
  const gateway = options.gatewayOrigin ? checkedOrigin(options.gatewayOrigin, 'gatewayOrigin') : undefined;
  const dev = options.devServerOrigin ? [checkedOrigin(options.devServerOrigin, 'devServerOrigin')] : [];
  const socketOf = (origin: string) => origin.replace(/^http/, 'ws');
  const hashes = (options.inlineScriptHashes ?? []).map(checkedHash);
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...hashes, ...dev]],
    // React and xterm set inline style attributes; styles cannot run code.
    ['style-src', ["'self'", "'unsafe-inline'", ...dev]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...(gateway ? [gateway, socketOf(gateway)] : []), ...dev, ...dev.map(socketOf)]],
    // A source ending in "/" matches that path and below (CSP3 path matching): the canvas only.
    ['frame-src', gateway ? [`${gateway}${CANVAS_PATH}`] : ["'none'"]],
    ['worker-src', ["'self'", 'blob:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** The headers every Control UI response carries besides the policy itself. */
export function controlUiHeaders(policy: string): Record<string, string> {
  return {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  };
}

/** A hash source, and nothing that could widen the policy ('unsafe-inline', a host…). */
function checkedHash(value: string): string {
  if (!/^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/.test(value)) {
    throw new Error(`inlineScriptHashes must be 'sha256-<base64>' sources, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A CSP source must be a bare origin; a path or junk would widen or break the policy. */
function checkedOrigin(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be http(s), got ${url.protocol}`);
  }
  if (url.origin !== value.replace(/\/$/, '')) {
    throw new Error(`${name} must be a bare origin like http://127.0.0.1:18790, got ${JSON.stringify(value)}`);
  }
  return url.origin;
}
