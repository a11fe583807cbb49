import { isIP } from 'node:net';
import {
  type AddressPolicy,
  addressKind,
  type ResolveAll,
  type ResolvedAddress,
  systemResolveAll,
} from '../web/index.js';

/** A refusal or failure of the browser tool, worded for the model and the person reading along. */
export class BrowserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserError';
  }
}

/**
 * Resolves `host` and checks *every* address against the policy (a name with one private
 * address among public ones is refused); returns the address to connect to, so the connection
 * goes where the check looked (no second lookup a rebinding DNS server could answer otherwise).
 */
export async function checkedHost(
  host: string,
  policy: AddressPolicy,
  resolveAll: ResolveAll = systemResolveAll,
): Promise<ResolvedAddress> {
  const bare = host.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: bare, family: literal }];
  else {
    try {
      addresses = await resolveAll(bare);
    } catch (error) {
      throw new BrowserError(`cannot resolve ${bare}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (addresses.length === 0) throw new BrowserError(`cannot resolve ${bare}: no addresses`);
  }
  for (const { address } of addresses) {
    if (!policy.allows(address, bare))
      throw new BrowserError(
        `refused: ${bare} is ${address} (${addressKind(address)} address); the browser reaches private, loopback and link-local addresses only when tools.browser allows them (allowPrivateNetwork, allowHosts)`,
      );
  }
  return addresses[0]!;
}

/** A URL the model may open: http(s) without credentials, or about:blank. */
export function parseOpenUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BrowserError(`not a URL: ${raw} (give a full address, e.g. https://example.com)`);
  }
  if (url.href === 'about:blank') return url;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BrowserError(`refused: the browser opens only http and https URLs, not ${url.protocol}`);
  if (url.username || url.password) throw new BrowserError('refused: URLs with credentials in them are not opened');
  return url;
}
