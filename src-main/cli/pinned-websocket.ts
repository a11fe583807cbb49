import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import WebSocket from 'ws';
import { normaliseFingerprint } from '../gateway/auth/tls-identity.js';
import type { WebSocketConstructor } from '../protocol/client/index.js';

export interface PinCheck {
  /** Set when the server's certificate did not match the pin. */
  failure?: string;
}

/**
 * A WebSocket class for one gateway whose TLS certificate is pinned by SHA-256.
 * The pin replaces CA validation (the gateway's certificate is self-signed); a
 * different certificate is refused before a single frame is sent — never re-pinned.
 */
export function pinnedWebSocket(pin: string, check: PinCheck): WebSocketConstructor {
  const expected = normaliseFingerprint(pin);
  if (!expected) throw new Error(`invalid TLS pin "${pin}": expected a SHA-256 fingerprint (64 hex digits)`);
  return class PinnedWebSocket extends WebSocket {
    constructor(url: string) {
      if (!url.startsWith('wss://')) {
        throw new Error(`refusing ${url}: a pinned gateway is reached over wss:// only`);
      }
      super(url, { rejectUnauthorized: false });
      this.on('upgrade', (response: IncomingMessage) => {
        const socket = response.socket as TLSSocket;
        const actual = normaliseFingerprint(socket.getPeerCertificate?.().fingerprint256 ?? '');
        if (actual !== expected) {
          check.failure = `the gateway's TLS certificate changed (pinned sha256:${expected}, got sha256:${actual ?? 'none'}); refusing to connect. If the gateway really got a new certificate, pair again with a new setup code.`;
          this.terminate();
        }
      });
    }
  } as unknown as WebSocketConstructor;
}

/** Plain ws:// is for loopback only: anything else must be wss:// (and pinned). */
export function assertTransportAllowed(url: string): void {
  const parsed = new URL(url);
  if (parsed.protocol === 'ws:') {
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
    if (!loopback) throw new Error(`refusing plaintext ${url}: use wss:// for a gateway that is not on this machine`);
  } else if (parsed.protocol !== 'wss:') {
    throw new Error(`unsupported gateway URL ${url}: use ws://127.0.0.1:<port> or wss://host:<port>`);
  }
}
