import type { ListenerNames } from '../listener-names.js';

/**
 * The origin of Hearth's own Electron window (`app://hearth`, see src-main/app/app-origin.ts;
 * the gateway may not import the app shell). The window talks over IPC, but a browser never
 * presents this origin for a web page, so a WebSocket carrying it is no less trusted than one
 * without an Origin at all — the local CLI's case.
 */
export const DESKTOP_APP_ORIGIN = 'app://hearth';

/** What a listener is, for deciding whether a browser's Origin is its own Control UI. */
export interface OwnOriginPolicy {
  tls: boolean;
  /** The listener's own names and port (the same list the Host check uses). */
  names: ListenerNames;
  /** Origins outside the listener that are ours too (the desktop window, on the loopback listener). */
  extraOrigins?: readonly string[];
}

/**
 * True when `origin` (a browser's Origin header) is a page this listener itself serves:
 * the listener's scheme, one of its own names, its port. Decided from the listener's
 * names, never from the request's Host header: a DNS-rebound page sends
 * `Host: evil.example:18790` and `Origin: http://evil.example:18790`, which agree.
 */
export function isOwnOrigin(origin: string, policy: OwnOriginPolicy): boolean {
  if (policy.extraOrigins?.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== (policy.tls ? 'https:' : 'http:')) return false;
  // An Origin is scheme://host[:port] and nothing more; anything else is not one.
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return false;
  return policy.names.allows(url.host);
}
