import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bearerOf } from '../gateway/auth/bearer-token.js';
import type { PeerInfo } from '../gateway/auth/handshake.js';
import type { CallerIdentity } from '../gateway/caller.js';
import { hasScope, type Scope } from '../protocol/index.js';
import type { ApiGateway } from './run-turn.js';

export type HttpCallerResult =
  | { ok: true; caller: CallerIdentity }
  | { ok: false; status: 401 | 403 | 429; message: string; retryAfterMs?: number };

/**
 * Who an HTTP request is (its bearer token, by the gateway's rules) and whether it holds
 * `scope`. The caller it gets is what a socket with the same credential would be, so every
 * method it calls checks the same scopes.
 */
export async function httpCallerFor(
  request: IncomingMessage,
  peer: PeerInfo,
  gateway: ApiGateway,
  options: { scope: Scope; clientId: string },
): Promise<HttpCallerResult> {
  const auth = await gateway.authenticateBearer(bearerOf(request.headers.authorization), peer);
  if (!auth.ok) return auth;
  const { identity } = auth;
  if (!hasScope(identity.scopes, options.scope)) {
    const held = identity.scopes.length > 0 ? identity.scopes.join(', ') : 'none';
    return { ok: false, status: 403, message: `this token lacks the ${options.scope} scope (it has: ${held})` };
  }
  return {
    ok: true,
    caller: {
      connId: `http-${randomUUID()}`,
      role: 'operator',
      scopes: identity.scopes,
      clientId: options.clientId,
      clientMode: 'backend',
      deviceId: identity.deviceId,
      authMethod: identity.method,
      isLocal: peer.isDirectLocal,
      person: identity.person,
      remoteAddress: peer.remoteAddress,
      caps: [],
    },
  };
}

/** Reads a JSON body of at most `maxBytes`; throws a message fit for a 400 or 413. */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BodyError(413, `request body is larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new BodyError(400, 'request body is empty: send a JSON object');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BodyError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
}

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}
