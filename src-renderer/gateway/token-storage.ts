/**
 * The gateway token in the browser: it arrives once, in the `#token=` fragment of the link
 * `hearth gateway run --open` (or `--print-url`) gives the person, and is never stored —
 * not in localStorage, not in sessionStorage, where any script of the origin could read it
 * later. The first connect uses it to register this browser's own device key, and from
 * then on the browser signs in with that key and a device token (start-client.ts). See
 * docs/SECURITY.md "The gateway token in a browser".
 */
export interface TokenSource {
  /** e.g. location.hash */
  hash: string;
  /** Strips the fragment from the address bar (history.replaceState) so it is not bookmarked, synced or shared. */
  clearHash(): void;
  /** Where older versions kept the token; the stale copy is removed. */
  storage?: Pick<Storage, 'removeItem'>;
}

/** Older versions kept the gateway token here, readable by any script of the origin. */
export const LEGACY_TOKEN_KEY = 'hearth.gatewayToken';

/** Takes a `#token=…` fragment (and scrubs it from the address bar); the caller keeps it in memory only. */
export function takeGatewayToken(source: TokenSource): string | undefined {
  source.storage?.removeItem(LEGACY_TOKEN_KEY);
  const params = new URLSearchParams(source.hash.replace(/^#/, ''));
  if (!params.has('token')) return undefined;
  source.clearHash();
  return params.get('token')?.trim() || undefined;
}
