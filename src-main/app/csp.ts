export interface CspOptions {
  /** Origin of the agent canvas (served by the gateway); the only thing allowed in a frame. */
  canvasOrigin?: string;
  /** Vite dev server origin in development (its HMR socket and module URLs). */
  devServerOrigin?: string;
}

/**
 * The renderer's Content-Security-Policy. Scripts only from the app itself (no
 * eval, no inline), network only to the app and the loopback gateway, frames only
 * for the canvas, no plugins, no <base> games, no form posts away.
 */
export function buildContentSecurityPolicy(options: CspOptions = {}): string {
  const dev = options.devServerOrigin ? [options.devServerOrigin] : [];
  const devSocket = options.devServerOrigin ? [options.devServerOrigin.replace(/^http/, 'ws')] : [];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...dev]],
    // React and xterm set inline style attributes; styles cannot run code.
    ['style-src', ["'self'", "'unsafe-inline'", ...dev]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    [
      'connect-src',
      [
        "'self'",
        'ws://127.0.0.1:*',
        'http://127.0.0.1:*',
        'wss://127.0.0.1:*',
        'https://127.0.0.1:*',
        ...dev,
        ...devSocket,
      ],
    ],
    ['frame-src', options.canvasOrigin ? [checkedOrigin(options.canvasOrigin, 'canvasOrigin')] : ["'none'"]],
    ['worker-src', ["'self'", 'blob:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  if (options.devServerOrigin) checkedOrigin(options.devServerOrigin, 'devServerOrigin');
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
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

/** The part of Electron's `session.webRequest` this uses. */
export interface WebRequestLike {
  onHeadersReceived(
    listener: (
      details: { url: string; responseHeaders?: Record<string, string[]> },
      callback: (response: { responseHeaders?: Record<string, string[] | string> }) => void,
    ) => void,
  ): void;
}

/**
 * Adds the policy to every response the renderer's session receives from our own
 * origins (the app scheme and the dev server). Pages we do not own keep their headers.
 */
export function installContentSecurityPolicy(
  webRequest: WebRequestLike,
  policy: string,
  isOwnUrl: (url: string) => boolean,
): void {
  webRequest.onHeadersReceived((details, callback) => {
    if (!isOwnUrl(details.url)) {
      callback({});
      return;
    }
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      // Replace, never merge: a weaker policy from upstream must not survive.
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [policy];
    callback({ responseHeaders: headers });
  });
}
