/** Where the browser keeps the gateway token between loads; an injected Storage so tests use their own. */
export interface TokenSource {
  /** e.g. location.hash */
  hash: string;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Strips the token from the address bar so it is not bookmarked or shared by accident. */
  clearHash(): void;
}

const KEY = 'hearth.gatewayToken';

/** A `#token=…` fragment wins (first load after `hearth dashboard`); else the stored one. */
export function readGatewayToken(source: TokenSource): string | undefined {
  const params = new URLSearchParams(source.hash.replace(/^#/, ''));
  const fromHash = params.get('token')?.trim();
  if (fromHash) {
    source.storage.setItem(KEY, fromHash);
    source.clearHash();
    return fromHash;
  }
  return source.storage.getItem(KEY) ?? undefined;
}

export function saveGatewayToken(source: Pick<TokenSource, 'storage'>, token: string): void {
  if (token.trim()) source.storage.setItem(KEY, token.trim());
  else source.storage.removeItem(KEY);
}
