import { base64Decode, base64UrlEncode } from './device-auth.js';

/**
 * What a phone needs to pair, carried in a QR code or a `hearth://pair?code=…` link:
 * where the gateway is, a single-use bootstrap token (pairing only, 10 minutes), and
 * the TLS certificate's SHA-256 fingerprint to pin. Never the permanent gateway token.
 */
export interface SetupCode {
  version: 1;
  urls: string[];
  bootstrapToken: string;
  /** 64 lower-case hex digits. */
  tlsFingerprint: string;
  expiresAt: number;
  /** Gateway's display name, shown on the phone before it connects. */
  name?: string;
}

interface Compact {
  v: 1;
  u: string[];
  t: string;
  f: string;
  e: number;
  n?: string;
}

export function encodeSetupCode(code: SetupCode): string {
  const compact: Compact = { v: 1, u: code.urls, t: code.bootstrapToken, f: code.tlsFingerprint, e: code.expiresAt };
  if (code.name) compact.n = code.name;
  return base64UrlEncode(new TextEncoder().encode(JSON.stringify(compact)));
}

export class SetupCodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupCodeError';
  }
}

/** Accepts the bare code, or a `hearth://pair?code=…` link; says exactly what is wrong with a bad one. */
export function decodeSetupCode(text: string, now?: number): SetupCode {
  let raw = text.trim();
  if (raw.startsWith('hearth://')) {
    const query = raw.slice(raw.indexOf('?') + 1);
    const code = new URLSearchParams(query).get('code');
    if (!code) throw new SetupCodeError('the pairing link has no code');
    raw = code;
  }
  const bytes = base64Decode(raw);
  if (!bytes || bytes.length === 0) throw new SetupCodeError('the setup code is not valid (not base64url)');
  let value: Partial<Compact>;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Compact>;
  } catch {
    throw new SetupCodeError('the setup code is damaged (not JSON inside)');
  }
  if (value.v !== 1)
    throw new SetupCodeError(`the setup code is version ${String(value.v)}; this app understands version 1`);
  if (!Array.isArray(value.u) || value.u.length === 0 || !value.u.every((u) => typeof u === 'string')) {
    throw new SetupCodeError('the setup code has no gateway address');
  }
  if (typeof value.t !== 'string' || value.t.length < 16)
    throw new SetupCodeError('the setup code has no bootstrap token');
  if (typeof value.f !== 'string' || !/^[0-9a-f]{64}$/.test(value.f))
    throw new SetupCodeError('the setup code has no valid TLS fingerprint');
  if (typeof value.e !== 'number') throw new SetupCodeError('the setup code has no expiry');
  if (now !== undefined && value.e <= now)
    throw new SetupCodeError('the setup code has expired; make a new one on the desktop');
  return {
    version: 1,
    urls: value.u,
    bootstrapToken: value.t,
    tlsFingerprint: value.f,
    expiresAt: value.e,
    name: value.n,
  };
}

export function setupLink(code: string): string {
  return `hearth://pair?code=${code}`;
}
