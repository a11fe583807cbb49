/**
 * The renderer is served from a privileged custom scheme rather than file://, so
 * `'self'` in the CSP, the navigation guard and the IPC sender check all mean one
 * exact origin. (file:// pages share one opaque origin with every other local file.)
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'hearth';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** The origin of a URL, or undefined when it has none (about:blank, data:, garbage). */
export function originOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  // WHATWG gives non-special schemes an opaque "null" origin; ours is registered
  // `standard` in Electron, so compare scheme + host the way Chromium does there.
  if (parsed.origin !== 'null') return parsed.origin;
  if (parsed.host === '') return undefined;
  return `${parsed.protocol}//${parsed.host}`;
}

export function isSameOrigin(url: string, origin: string): boolean {
  return originOf(url) === origin;
}

/** Links we hand to the system browser; everything else (file:, javascript:, custom schemes) is refused. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:';
  } catch {
    return false;
  }
}
