import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import WebSocket from 'ws';
import { normaliseFingerprint } from '../gateway/auth/tls-identity.js';

/** The gateway showed a certificate other than the one pinned: never connected, never re-pinned. */
export class CertificatePinError extends Error {
  constructor(
    readonly url: string,
    readonly expected: string,
    readonly actual: string | undefined,
  ) {
    super(
      `The gateway at ${url} showed a different TLS certificate than the one pinned when this computer paired ` +
        `(pinned sha256:${expected}, got sha256:${actual ?? 'none'}). Hearth did not connect. If that gateway really ` +
        'has a new certificate, make a new pairing code there (`hearth pair qr`) and pair again.',
    );
    this.name = 'CertificatePinError';
  }
}

export interface PinnedSocketOptions {
  /** SHA-256 fingerprint of the gateway's certificate (64 hex digits, colons and `sha256:` allowed). */
  pin: string;
  timeoutMs?: number;
}

/**
 * A WebSocket to a remote gateway whose self-signed certificate is pinned by SHA-256.
 * The TLS connection is made and its certificate checked *before* the WebSocket's HTTP
 * upgrade is written, so a gateway with another certificate receives nothing from us
 * (not even the request line). The pin replaces CA validation; it is never updated here.
 */
export async function openPinnedSocket(url: string, options: PinnedSocketOptions): Promise<WebSocket> {
  const expected = normaliseFingerprint(options.pin);
  if (!expected) throw new Error(`invalid TLS pin "${options.pin}": expected a SHA-256 fingerprint (64 hex digits)`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a gateway address: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'wss:') throw new Error(`refusing ${url}: a remote gateway is reached over wss:// only`);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = Number(parsed.port || 443);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const tls = await new Promise<TLSSocket>((resolve, reject) => {
    // CA checks are off on purpose: the certificate is self-signed and the pin below is the whole check.
    const socket = tlsConnect({ host, port, servername: isIp(host) ? undefined : host, rejectUnauthorized: false });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from ${url} within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot reach ${url}: ${error.message}`));
    });
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const actual = normaliseFingerprint(socket.getPeerCertificate().fingerprint256 ?? '');
      if (actual !== expected) {
        socket.destroy();
        reject(new CertificatePinError(url, expected, actual));
        return;
      }
      resolve(socket);
    });
  });
  return new Promise<WebSocket>((resolve, reject) => {
    // ws writes its upgrade request on the socket we hand it: the one whose certificate was just checked.
    const createConnection = (() => tls) as unknown as NonNullable<WebSocket.ClientOptions['createConnection']>;
    const ws = new WebSocket(url, { createConnection, handshakeTimeout: timeoutMs });
    ws.once('open', () => resolve(ws));
    ws.once('error', (error) => reject(new Error(`cannot open a WebSocket to ${url}: ${error.message}`)));
  });
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
