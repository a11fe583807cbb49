/**
 * `hearth://` links: the OS hands them to us on launch (argv on Windows/Linux,
 * `open-url` on macOS) or to the running instance (second-instance argv).
 *
 *   hearth://pair?gateway=wss://host:18790&token=<bootstrap token>[&fingerprint=<sha256>]
 *   hearth://session/<session key>            e.g. hearth://session/agent%3Amain%3Amain
 *
 * Every link comes from outside (a web page, a QR code), so nothing in it is
 * trusted: bad links fail with a message saying exactly what is wrong, and a
 * pairing link only ever pre-fills the pairing screen for the user to confirm.
 */
export const DEEP_LINK_SCHEME = 'hearth';

export type DeepLink =
  | { kind: 'pair'; gatewayUrl: string; token: string; fingerprint?: string }
  | { kind: 'session'; sessionKey: string };

export class DeepLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeepLinkError';
  }
}

const MAX_LINK_LENGTH = 2048;
const SESSION_KEY = /^[A-Za-z0-9][A-Za-z0-9:._@+-]{0,255}$/;
const FINGERPRINT = /^(sha256:)?([0-9a-f]{64}|([0-9a-f]{2}:){31}[0-9a-f]{2})$/i;

export function parseDeepLink(link: string): DeepLink {
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
      return parsePair(url.searchParams);
    case 'session':
      return parseSession(rest);
    case undefined:
      throw new DeepLinkError('link has no action (expected hearth://pair?… or hearth://session/<key>)');
    default:
      throw new DeepLinkError(`unknown action "${truncate(action)}" (expected pair or session)`);
  }
}

function parsePair(params: URLSearchParams): DeepLink {
  const allowed = new Set(['gateway', 'token', 'fingerprint']);
  for (const key of params.keys()) {
    if (!allowed.has(key)) throw new DeepLinkError(`pair link has an unknown parameter "${truncate(key)}"`);
  }
  const gateway = single(params, 'gateway');
  const token = single(params, 'token');
  const fingerprint = params.has('fingerprint') ? single(params, 'fingerprint') : undefined;
  let gatewayUrl: URL;
  try {
    gatewayUrl = new URL(gateway);
  } catch {
    throw new DeepLinkError(`pair link's gateway is not a URL: ${JSON.stringify(truncate(gateway))}`);
  }
  if (gatewayUrl.protocol !== 'ws:' && gatewayUrl.protocol !== 'wss:') {
    throw new DeepLinkError(`pair link's gateway must be ws:// or wss://, got ${gatewayUrl.protocol}//`);
  }
  if (gatewayUrl.username || gatewayUrl.password) {
    throw new DeepLinkError("pair link's gateway must not carry credentials");
  }
  if (!/^[A-Za-z0-9_-]{16,512}$/.test(token)) {
    throw new DeepLinkError("pair link's token must be 16–512 characters of A–Z, a–z, 0–9, _ or -");
  }
  if (fingerprint !== undefined && !FINGERPRINT.test(fingerprint)) {
    throw new DeepLinkError("pair link's fingerprint must be a SHA-256 (64 hex digits or colon pairs)");
  }
  if (fingerprint !== undefined && gatewayUrl.protocol !== 'wss:') {
    throw new DeepLinkError('pair link has a fingerprint but its gateway is not wss://');
  }
  return {
    kind: 'pair',
    gatewayUrl: gatewayUrl.toString().replace(/\/$/, ''),
    token,
    ...(fingerprint ? { fingerprint } : {}),
  };
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

function single(params: URLSearchParams, name: string): string {
  const values = params.getAll(name);
  if (values.length === 0 || values[0] === '') throw new DeepLinkError(`pair link is missing "${name}"`);
  if (values.length > 1) throw new DeepLinkError(`pair link has "${name}" more than once`);
  return values[0]!;
}

/** The first hearth:// argument on a command line (Windows/Linux pass links as argv). */
export function findDeepLinkArg(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`));
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
