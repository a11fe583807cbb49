import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { type AddressPolicy, addressKind } from './address-policy.js';

/** A refusal or a failure, said so the model (and the person reading along) knows what happened. */
export class WebFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebFetchError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a name resolves to (injected in tests; `dns.lookup` with `all` otherwise). */
export type ResolveAll = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolveAll: ResolveAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface SafeFetchOptions {
  policy: AddressPolicy;
  resolveAll?: ResolveAll;
  maxBytes: number;
  maxRedirects: number;
  timeoutMs: number;
  signal?: AbortSignal;
  userAgent?: string;
}

export interface FetchedPage {
  /** Where the body came from, after redirects. */
  url: string;
  /** The URLs that redirected here, in order. */
  redirects: string[];
  status: number;
  contentType: string;
  body: Buffer;
  /** The body stopped at maxBytes. */
  cut: boolean;
}

/**
 * GET with SSRF checks at every hop: the URL must be http(s); its host is resolved and every
 * address checked against the policy (a name with one private address among public ones is
 * refused); the connection goes to the checked address (no second lookup an attacker's DNS
 * could answer differently); redirects are followed by hand, each through the same checks.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<FetchedPage> {
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)])
    : AbortSignal.timeout(options.timeoutMs);
  const redirects: string[] = [];
  let url = parseUrl(rawUrl);
  for (;;) {
    const target = await checkedAddress(url, options);
    const response = await get(url, target, options, signal);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      if (redirects.length >= options.maxRedirects)
        throw new WebFetchError(`refused: more than ${options.maxRedirects} redirects (last to ${location})`);
      redirects.push(url.href);
      let next: string;
      try {
        next = new URL(location, url).href;
      } catch {
        throw new WebFetchError(`${url.href} redirected to a bad URL: ${location}`);
      }
      const from = url.href;
      try {
        url = parseUrl(next);
      } catch (error) {
        throw new WebFetchError(`${(error as Error).message} (redirected from ${from})`);
      }
      continue;
    }
    const declared = Number(response.headers['content-length'] ?? Number.NaN);
    const encoded = (response.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoded === 'identity' && declared > options.maxBytes) {
      response.destroy();
      throw new WebFetchError(
        `refused: ${url.href} is ${declared} bytes, over the ${options.maxBytes}-byte cap (tools.web.maxBytes)`,
      );
    }
    const { body, cut } = await readCapped(response, encoded, options.maxBytes, signal);
    return {
      url: url.href,
      redirects,
      status: response.statusCode ?? 0,
      contentType: String(response.headers['content-type'] ?? ''),
      body,
      cut,
    };
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebFetchError(`not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebFetchError(`refused: only http and https URLs can be fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new WebFetchError('refused: URLs with credentials in them are not fetched');
  return url;
}

async function checkedAddress(url: URL, options: SafeFetchOptions): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await (options.resolveAll ?? systemResolveAll)(host);
    } catch (error) {
      throw new WebFetchError(`cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (addresses.length === 0) throw new WebFetchError(`cannot resolve ${host}: no addresses`);
  }
  for (const { address } of addresses) {
    if (!options.policy.allows(address, host))
      throw new WebFetchError(
        `refused: ${url.href} leads to ${address} (${addressKind(address)} address); private, loopback and link-local addresses are not fetched unless tools.web allows them`,
      );
  }
  return addresses[0]!;
}

function get(
  url: URL,
  target: ResolvedAddress,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  // The socket connects to the address just checked, never to a fresh lookup of the name.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        lookup: pinned,
        signal,
        headers: {
          'user-agent': options.userAgent ?? 'Hearth/1 (web_fetch)',
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.name === 'AbortError' || signal.aborted)
        reject(
          new WebFetchError(
            options.signal?.aborted
              ? 'the fetch was cancelled'
              : `${url.href} did not answer within ${options.timeoutMs} ms`,
          ),
        );
      else reject(new WebFetchError(`cannot fetch ${url.href}: ${error.code ?? error.message}`));
    });
    req.end();
  });
}

function readCapped(
  response: IncomingMessage,
  encoding: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; cut: boolean }> {
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  const stream = decoder ? response.pipe(decoder) : response;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (cut: boolean) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      resolve({ body: Buffer.concat(chunks), cut });
    };
    const onAbort = () => {
      if (done) return;
      done = true;
      response.destroy();
      reject(new WebFetchError('the page did not finish arriving in time'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (chunk.length > room) {
        finish(true);
        response.destroy();
        decoder?.destroy();
      }
    });
    stream.on('end', () => finish(false));
    stream.on('error', (error: Error) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      reject(new WebFetchError(`the page could not be read: ${error.message}`));
    });
    if (decoder) response.on('error', (error: Error) => decoder.emit('error', error));
  });
}
