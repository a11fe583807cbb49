import { type AuthMethod, fullOperatorScopes } from '../../protocol/index.js';
import { ApiTokenStore } from './api-tokens.js';
import type { AuthRateLimiter } from './auth-rate-limit.js';
import type { DeviceRegistry } from './device-registry.js';
import { secretsEqual } from './gateway-secret.js';
import type { GatewayAuthSettings, PeerInfo } from './handshake.js';

/** Who an HTTP request with `Authorization: Bearer …` is, by the same credentials a socket uses. */
export interface BearerIdentity {
  scopes: string[];
  method: AuthMethod;
  /** As in the handshake: the gateway secret's holder on loopback, never a device token. */
  person: boolean;
  deviceId?: string;
  /** An API token's id (`hearth tokens create`). */
  apiTokenId?: string;
}

export type BearerResult =
  | { ok: true; identity: BearerIdentity }
  | { ok: false; status: 401 | 403 | 429; message: string; retryAfterMs?: number };

export interface BearerDeps {
  auth: GatewayAuthSettings;
  devices: DeviceRegistry;
  rateLimiter: AuthRateLimiter;
  /** Minted API tokens; absent, only the gateway secret and device tokens work. */
  apiTokens?: ApiTokenStore;
}

/** The token of an `Authorization` header, if it is a bearer one. */
export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The HTTP APIs' credential check (OpenAI-compatible API, MCP over HTTP). The rules are the
 * handshake's (handshake.ts), minus what needs a socket (device proofs, pairing):
 * - the gateway secret on a direct loopback peer: every operator scope (as the local CLI gets);
 *   off loopback it is refused, as a socket without a device keeps no scopes;
 * - a paired device's operator token, anywhere: exactly the scopes granted with it;
 * - an API token (`hearth tokens create`), anywhere: exactly the scopes it was minted with;
 * - `gateway.auth.mode: "none"` on loopback: every operator scope, without a token;
 * - a web page of another site (it sent an Origin that is not ours): refused, whatever it holds.
 * Failed guesses count toward the same lockout as failed handshakes (loopback is exempt).
 */
export async function authenticateBearer(
  token: string | undefined,
  peer: PeerInfo,
  deps: BearerDeps,
): Promise<BearerResult> {
  if (peer.origin !== undefined && !peer.isOwnControlUi) {
    return { ok: false, status: 403, message: `origin not allowed: ${peer.origin} may not call this API` };
  }
  const ownerSurface = peer.isDirectLocal && !peer.origin;
  const source = peer.remoteAddress;
  if (!ownerSurface) {
    const lockedFor = deps.rateLimiter.lockedFor(source);
    if (lockedFor > 0) {
      return { ok: false, status: 429, message: 'too many failed attempts; try again later', retryAfterMs: lockedFor };
    }
  }
  const fail = (message: string): BearerResult => {
    if (!ownerSurface) deps.rateLimiter.recordFailure(source);
    return { ok: false, status: 401, message };
  };

  if (token === undefined) {
    if (deps.auth.mode === 'none' && ownerSurface) {
      return { ok: true, identity: { scopes: [...fullOperatorScopes], method: 'none', person: true } };
    }
    return {
      ok: false,
      status: 401,
      message: 'missing bearer token: send "Authorization: Bearer <token>" (`hearth gateway token`, or a device token)',
    };
  }

  const secret = deps.auth.mode === 'password' ? deps.auth.password : deps.auth.token;
  if (secret !== undefined && secretsEqual(token, secret)) {
    if (!ownerSurface) {
      return {
        ok: false,
        status: 403,
        message: 'the gateway token is accepted on loopback only; use a paired device token from elsewhere',
      };
    }
    const method: AuthMethod = deps.auth.mode === 'password' ? 'password' : 'token';
    return { ok: true, identity: { scopes: [...fullOperatorScopes], method, person: true } };
  }

  if (deps.apiTokens && ApiTokenStore.isApiToken(token)) {
    const checked = deps.apiTokens.verify(token);
    if (!checked.ok) {
      return fail(
        checked.reason === 'expired'
          ? 'this API token has expired; mint a new one (`hearth tokens create`)'
          : 'invalid API token: it was revoked or never issued (`hearth tokens list`)',
      );
    }
    if (!ownerSurface) deps.rateLimiter.recordSuccess(source);
    return {
      ok: true,
      identity: { scopes: [...checked.info.scopes], method: 'api-token', apiTokenId: checked.info.id, person: false },
    };
  }

  for (const device of deps.devices.list()) {
    const entry = device.tokens.find((t) => t.role === 'operator');
    if (!entry) continue;
    if (deps.devices.checkToken(device.deviceId, 'operator', token, []).ok) {
      if (!ownerSurface) deps.rateLimiter.recordSuccess(source);
      await deps.devices.touch(device.deviceId);
      return {
        ok: true,
        identity: { scopes: [...entry.scopes], method: 'device-token', deviceId: device.deviceId, person: false },
      };
    }
  }
  return fail('invalid bearer token: it is neither the gateway token, a paired device token nor an API token');
}
