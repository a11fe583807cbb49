/**
 * `hearth://` links: the OS hands them to us on launch (argv on Windows/Linux,
 * `open-url` on macOS) or to the running instance (second-instance argv).
 *
 *   hearth://pair?code=<setup code>           exactly what `hearth pair qr` prints
 *   hearth://session/<session key>            e.g. hearth://session/agent%3Amain%3Amain
 *
 * Every link comes from outside (a web page, a QR code), so nothing in it is
 * trusted: bad links fail with a message saying exactly what is wrong, and a
 * pairing link only opens the pairing screen, which asks the gateway's owner to
 * approve this device (the code itself grants nothing but that request).
 */
import { decodeSetupCode, type SetupCode, SetupCodeError } from '../protocol/index.js';

export const DEEP_LINK_SCHEME = 'hearth';

export type DeepLink =
  | {
      kind: 'pair';
      /** The setup code as it came (base64url), handed on to the pairing screen. */
      code: string;
      /** What the code says: gateway addresses, certificate pin, expiry, name. */
      setup: SetupCode;
    }
  | { kind: 'session'; sessionKey: string };

export class DeepLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeepLinkError';
  }
}

const MAX_LINK_LENGTH = 2048;
const SESSION_KEY = /^[A-Za-z0-9][A-Za-z0-9:._@+-]{0,255}$/;
const SETUP_CODE = /^[A-Za-z0-9_-]+={0,2}$/;

/** `now` (ms) makes an expired pairing code fail here, naming the expiry, rather than at the gateway. */
export function parseDeepLink(link: string, now?: number): DeepLink {
  if (link.length > MAX_LINK_LENGTH) throw new DeepLinkError(`link is longer than ${MAX_LINK_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new DeepLinkError(`not a link: ${JSON.stringify(truncate(link))}`);
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) {
    throw new DeepLinkError(`not a hearth:// link (scheme is ${url.protocol.replace(/:$/, '')})`);
  }
  // hearth://pair?… parses with host "pair"; hearth:pair?… (no slashes) with pathname "pair".
  const segments = [url.host, ...url.pathname.split('/')].filter((part) => part !== '');
  const [action, ...rest] = segments;
  switch (action) {
    case 'pair':
      if (rest.length > 0) throw new DeepLinkError(`unexpected path after pair: /${rest.join('/')}`);
      return parsePair(url.searchParams, now);
    case 'session':
      return parseSession(rest);
    case undefined:
      throw new DeepLinkError('link has no action (expected hearth://pair?code=… or hearth://session/<key>)');
    default:
      throw new DeepLinkError(`unknown action "${truncate(action)}" (expected pair or session)`);
  }
}

function parsePair(params: URLSearchParams, now: number | undefined): DeepLink {
  for (const key of params.keys()) {
    if (key !== 'code') {
      throw new DeepLinkError(`pair link has an unknown parameter "${truncate(key)}" (it carries only code=)`);
    }
  }
  const codes = params.getAll('code');
  if (codes.length === 0 || codes[0] === '') {
    throw new DeepLinkError('pair link is missing "code" (make one with `hearth pair qr`)');
  }
  if (codes.length > 1) throw new DeepLinkError('pair link has "code" more than once');
  const code = codes[0]!;
  if (!SETUP_CODE.test(code)) throw new DeepLinkError("pair link's code is not a setup code (base64url expected)");
  let setup: SetupCode;
  try {
    setup = decodeSetupCode(code, now);
  } catch (error) {
    if (error instanceof SetupCodeError) throw new DeepLinkError(`pair link: ${error.message}`);
    throw error;
  }
  for (const address of setup.urls) {
    let parsed: URL;
    try {
      parsed = new URL(address);
    } catch {
      throw new DeepLinkError(`pair link's gateway address is not a URL: ${JSON.stringify(truncate(address))}`);
    }
    if (parsed.protocol !== 'wss:' && parsed.protocol !== 'https:') {
      throw new DeepLinkError(`pair link's gateway address must be wss:// (pinned TLS), got ${parsed.protocol}//`);
    }
    if (parsed.username || parsed.password) throw new DeepLinkError("pair link's gateway must not carry credentials");
  }
  return { kind: 'pair', code, setup };
}

function parseSession(rest: string[]): DeepLink {
  if (rest.length !== 1) throw new DeepLinkError('session link must be hearth://session/<key> with exactly one key');
  let key: string;
  try {
    key = decodeURIComponent(rest[0]!);
  } catch {
    throw new DeepLinkError('session key is not valid percent-encoding');
  }
  if (!SESSION_KEY.test(key)) {
    throw new DeepLinkError(`session key "${truncate(key)}" has characters a session key cannot have`);
  }
  return { kind: 'session', sessionKey: key };
}

/** The first hearth:// argument on a command line (Windows/Linux pass links as argv). */
export function findDeepLinkArg(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`));
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
