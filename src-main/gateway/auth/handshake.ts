import { createHash } from 'node:crypto';
import type { Clock } from '../../base/clock.js';
import {
  type AuthMethod,
  type ConnectParams,
  closeCodes,
  type DetailCode,
  holdsScopes,
  MINIMUM_PROBE_PROTOCOL,
  PROTOCOL_VERSION,
  type Role,
  scopesNotHeld,
  type WireError,
} from '../../protocol/index.js';
import { ApiTokenStore } from './api-tokens.js';
import type { AuthRateLimiter } from './auth-rate-limit.js';
import { verifyDeviceProof } from './device-proof.js';
import type { DeviceRegistry } from './device-registry.js';
import { secretsEqual } from './gateway-secret.js';
import type { PairingRequests } from './pairing-requests.js';

export type GatewayAuthMode = 'token' | 'password' | 'none';

export interface GatewayAuthSettings {
  mode: GatewayAuthMode;
  token?: string;
  password?: string;
}

/** Where a socket came from, as far as the gateway can tell. */
export interface PeerInfo {
  remoteAddress: string;
  /** Loopback peer, no forwarded headers, local Host header. */
  isDirectLocal: boolean;
  /** A browser Origin header, if any. */
  origin?: string;
  /** The Origin is the gateway's own Control UI (same host:port). */
  isOwnControlUi: boolean;
  /** The desktop window over IPC: trusted without a secret. */
  trustedInProcess?: boolean;
}

/** What a setup code allows: the scope ceiling, who asked for it, which device used it first. */
export interface SetupCodeGrant {
  scopes: string[];
  issuerDeviceId?: string;
  claimedBy?: string;
}

/** Setup-code tokens (pairing issue): single use, short lived, pairing only, bounded scopes. */
export interface BootstrapTokens {
  /** True when the token is live; does not consume it. */
  check(token: string): boolean;
  /** The live code's grant, or undefined. */
  grant(token: string): SetupCodeGrant | undefined;
  /** Binds the code to the first device that uses it; false for any other device. */
  claim(token: string, deviceId: string): boolean;
  consume(token: string): boolean;
}

export interface HandshakeDeps {
  auth: GatewayAuthSettings;
  devices: DeviceRegistry;
  pairing: PairingRequests;
  rateLimiter: AuthRateLimiter;
  bootstrap?: BootstrapTokens;
  clock: Clock;
  /** Minted API tokens (`hearth tokens create`): accepted as auth.token, with their own scopes. */
  apiTokens?: ApiTokenStore;
}

export interface AcceptedIdentity {
  role: Role;
  scopes: string[];
  method: AuthMethod;
  /**
   * A person at one of the owner's own surfaces: the desktop window, or the local CLI or
   * this gateway's Control UI on loopback with the gateway secret. Never a paired device's
   * credential (device token, setup code): a device cannot vouch for itself.
   */
  person: boolean;
  deviceId?: string;
  deviceToken?: string;
  issuedAtMs?: number;
}

export type HandshakeResult =
  | { ok: true; identity: AcceptedIdentity }
  | { ok: false; error: WireError; closeCode: number };

function refuse(
  message: string,
  code: DetailCode,
  extra: Record<string, unknown> = {},
  wireCode: WireError['code'] = 'INVALID_REQUEST',
): HandshakeResult {
  return {
    ok: false,
    error: { code: wireCode, message, details: { code, ...extra } },
    closeCode: closeCodes.policyViolation,
  };
}

function authRefusal(message: string, code: DetailCode, hasDevice: boolean): HandshakeResult {
  return refuse(message, code, {
    authReason: code.toLowerCase(),
    canRetryWithDeviceToken: hasDevice,
    recommendedNextStep: hasDevice
      ? 'reconnect with auth.deviceToken or pair again'
      : 'run `hearth gateway token` and pass it as auth.token',
  });
}

/**
 * Clients allowed to keep their requested scopes with a shared secret and no device
 * (PROTOCOL.md §4). Processes (CLI, backend) never carry an Origin; a page does, and only
 * this gateway's own Control UI keeps its scopes. What `client.id`/`mode` claim never
 * outweighs what the browser says the page is.
 */
function keepsScopesWithoutDevice(params: ConnectParams, peer: PeerInfo): boolean {
  if (!peer.isDirectLocal) return false;
  const { id, mode } = params.client;
  if (id === 'cli' && mode === 'cli') return !peer.origin;
  if (id === 'hearth-cli') return !peer.origin;
  if (id === 'gateway-client' && mode === 'backend') return !peer.origin;
  const isControlUi = id === 'hearth-control-ui' || id === 'openclaw-control-ui' || id === 'webchat-ui';
  return isControlUi && (!peer.origin || peer.isOwnControlUi);
}

/** The owner's own surface on this machine: loopback, and no page but our own Control UI. */
function isOwnerSurface(peer: PeerInfo): boolean {
  return peer.isDirectLocal && (!peer.origin || peer.isOwnControlUi);
}

/** A page of another site (or an opaque "null" origin): a browser told us so. */
function isForeignPage(peer: PeerInfo): boolean {
  return peer.origin !== undefined && !peer.isOwnControlUi;
}

/**
 * Lockout bucket: the address, with this gateway's own Control UI in a bucket of its own.
 * A page elsewhere (on this machine or on a phone) that fails on purpose fills its
 * address's bucket, never the Control UI's. Not keyed by any Origin: a non-browser client
 * could send a fresh one per attempt and never be locked out; claiming the own origin
 * buys it one more bucket, no more.
 */
function lockoutSource(peer: PeerInfo): string {
  return peer.isOwnControlUi ? `${peer.remoteAddress} own-control-ui` : peer.remoteAddress;
}

/** Loopback processes and this gateway's own Control UI on loopback are never locked out. */
function lockoutExempt(peer: PeerInfo): boolean {
  return isOwnerSurface(peer);
}

function scopeList(scopes: readonly string[]): string {
  return scopes.length > 0 ? scopes.join(', ') : '(none)';
}

export function checkProtocolVersion(params: ConnectParams, role: string): HandshakeResult | undefined {
  const { minProtocol, maxProtocol } = params;
  const inRange = (v: number) => minProtocol <= v && v <= maxProtocol;
  const isProbe = params.client.mode === 'probe' && maxProtocol >= MINIMUM_PROBE_PROTOCOL;
  const isNode = role === 'node' && params.client.mode === 'node' && inRange(MINIMUM_PROBE_PROTOCOL);
  if (inRange(PROTOCOL_VERSION) || isProbe || isNode) return undefined;
  return {
    ok: false,
    error: {
      code: 'INVALID_REQUEST',
      message: 'protocol mismatch',
      details: {
        code: 'PROTOCOL_MISMATCH',
        clientMinProtocol: minProtocol,
        clientMaxProtocol: maxProtocol,
        expectedProtocol: PROTOCOL_VERSION,
        minimumProbeProtocol: MINIMUM_PROBE_PROTOCOL,
      },
    },
    closeCode: closeCodes.protocolMismatch,
  };
}

/**
 * Decides who a `connect` is: shared secret, device proof, device token, pairing.
 * Pure decision plus registry effects (silent local pairing, pairing requests).
 */
export async function authenticateConnect(
  params: ConnectParams,
  challengeNonce: string,
  peer: PeerInfo,
  deps: HandshakeDeps,
): Promise<HandshakeResult> {
  const role = params.role ?? 'operator';
  if (role !== 'operator' && role !== 'node') return refuse('invalid role', 'AUTH_UNAUTHORIZED');
  const versionProblem = checkProtocolVersion(params, role);
  if (versionProblem) return versionProblem;

  const requested = params.scopes ?? [];
  if (peer.trustedInProcess) return { ok: true, identity: { role, scopes: requested, method: 'local', person: true } };

  // Without a secret, anything that can reach the port is in: no web page may be.
  if (peer.origin !== undefined && deps.auth.mode === 'none') {
    return refuse(
      'origin not allowed: web pages may not connect while gateway.auth.mode is "none"',
      'ORIGIN_NOT_ALLOWED',
      { origin: peer.origin },
      'FORBIDDEN',
    );
  }

  const rateLimited = !lockoutExempt(peer);
  const source = lockoutSource(peer);
  if (rateLimited) {
    const lockedFor = deps.rateLimiter.lockedFor(source);
    if (lockedFor > 0) {
      const result = refuse('too many failed attempts; try again later', 'AUTH_RATE_LIMITED', {
        retryAfterMs: lockedFor,
      });
      if (!result.ok) result.error.retryAfterMs = lockedFor;
      return result;
    }
  }
  const fail = (result: HandshakeResult): HandshakeResult => {
    if (rateLimited) deps.rateLimiter.recordFailure(source);
    return result;
  };

  const auth = params.auth ?? {};
  const secretGiven = auth.token ?? auth.password;
  const expected = deps.auth.mode === 'password' ? deps.auth.password : deps.auth.token;
  const secretOk =
    deps.auth.mode === 'none' ||
    (secretGiven !== undefined && expected !== undefined && secretsEqual(secretGiven, expected));
  const device = params.device;

  // Another site's page: whatever client.id/mode/device it claims, no operator scopes, no
  // pairing, no device token. A valid secret buys only the scope-free methods (health).
  if (isForeignPage(peer)) {
    if (secretGiven !== undefined && !secretOk)
      return fail(authRefusal('unauthorized: gateway token mismatch', 'AUTH_TOKEN_MISMATCH', false));
    if (secretGiven !== undefined && secretOk) {
      if (rateLimited) deps.rateLimiter.recordSuccess(source);
      const method: AuthMethod = deps.auth.mode === 'password' ? 'password' : 'token';
      return { ok: true, identity: { role, scopes: [], method, person: false } };
    }
    // Not a failed guess: no device token or setup code was even looked at.
    return refuse(
      `origin not allowed: ${peer.origin} is not this gateway's Control UI`,
      'ORIGIN_NOT_ALLOWED',
      { origin: peer.origin },
      'FORBIDDEN',
    );
  }
  const person = isOwnerSurface(peer);

  if (!device) {
    // An API token: a program's own credential, anywhere, holding exactly the scopes minted with it.
    if (
      secretGiven !== undefined &&
      !secretOk &&
      role === 'operator' &&
      deps.apiTokens &&
      ApiTokenStore.isApiToken(secretGiven)
    ) {
      const checked = deps.apiTokens.verify(secretGiven);
      if (!checked.ok) {
        const message =
          checked.reason === 'expired'
            ? 'unauthorized: this API token has expired'
            : 'unauthorized: API token revoked or never issued';
        return fail(authRefusal(message, 'AUTH_TOKEN_MISMATCH', false));
      }
      if (!holdsScopes(checked.info.scopes, requested)) {
        return fail(
          authRefusal(
            `this API token holds ${scopeList(checked.info.scopes)}; ask for no more (requested ${scopeList(requested)})`,
            'AUTH_SCOPE_MISMATCH',
            false,
          ),
        );
      }
      if (rateLimited) deps.rateLimiter.recordSuccess(source);
      return { ok: true, identity: { role, scopes: requested, method: 'api-token', person: false } };
    }
    if (secretGiven !== undefined && !secretOk)
      return fail(authRefusal('unauthorized: gateway token mismatch', 'AUTH_TOKEN_MISMATCH', false));
    if (!secretOk) {
      return fail(
        refuse(
          'device identity required',
          'DEVICE_IDENTITY_REQUIRED',
          { recommendedNextStep: 'pass the gateway token (auth.token) or pair this device' },
          'NOT_PAIRED',
        ),
      );
    }
    if (rateLimited) deps.rateLimiter.recordSuccess(source);
    const method: AuthMethod = deps.auth.mode === 'none' ? 'none' : deps.auth.mode;
    const keeps = keepsScopesWithoutDevice(params, peer);
    return { ok: true, identity: { role, scopes: keeps ? requested : [], method, person: keeps && person } };
  }

  const proof = verifyDeviceProof(device, {
    clientId: params.client.id,
    clientMode: params.client.mode,
    role,
    scopes: requested,
    token: auth.token ?? auth.deviceToken ?? auth.bootstrapToken,
    platform: params.client.platform,
    deviceFamily: params.client.deviceFamily,
    challengeNonce,
    now: deps.clock.now(),
  });
  if (!proof.ok) return fail(refuse(proof.message, proof.code, { reason: proof.code.toLowerCase() }));
  const deviceId = proof.deviceId;
  const paired = deps.devices.get(deviceId);

  // A device token (sent as deviceToken, or as token when it is not the shared secret).
  const deviceTokenGiven = auth.deviceToken ?? (secretOk ? undefined : auth.token);
  if (deviceTokenGiven !== undefined) {
    const check = deps.devices.checkToken(deviceId, role, deviceTokenGiven, requested);
    if (check.ok) {
      if (rateLimited) deps.rateLimiter.recordSuccess(source);
      await deps.devices.touch(deviceId);
      return { ok: true, identity: { role, scopes: requested, method: 'device-token', deviceId, person: false } };
    }
    if (check.reason === 'scope-mismatch')
      return fail(authRefusal('device token does not grant the requested scopes', 'AUTH_SCOPE_MISMATCH', true));
    if (auth.deviceToken !== undefined || auth.token !== undefined) {
      if (!(auth.bootstrapToken && deps.bootstrap?.check(auth.bootstrapToken))) {
        return fail(authRefusal('unauthorized: device token mismatch', 'AUTH_DEVICE_TOKEN_MISMATCH', true));
      }
    }
  }

  const bootstrapOk = auth.bootstrapToken !== undefined && deps.bootstrap?.check(auth.bootstrapToken) === true;
  if (auth.bootstrapToken !== undefined && !bootstrapOk) {
    return fail(authRefusal('setup code is invalid, expired or already used', 'AUTH_BOOTSTRAP_TOKEN_INVALID', true));
  }
  if (!secretOk && !bootstrapOk) {
    return fail(authRefusal('unauthorized: gateway token missing', 'AUTH_TOKEN_MISSING', true));
  }

  const scopesCovered = paired?.tokens.some((t) => t.role === role && holdsScopes(t.scopes, requested));
  if (paired && scopesCovered && secretOk) {
    if (rateLimited) deps.rateLimiter.recordSuccess(source);
    await deps.devices.touch(deviceId);
    const method: AuthMethod = deps.auth.mode === 'password' ? 'password' : 'token';
    // The browser Control UI signs in with the gateway token only when it holds no device
    // token (it never stores the gateway token): hand it a fresh one, or it could never stay signed in.
    if (paired.awaitingToken || (person && peer.isOwnControlUi)) {
      const delivered = await deps.devices.rotate(deviceId, role, requested);
      return {
        ok: true,
        identity: {
          role,
          scopes: requested,
          method,
          deviceId,
          deviceToken: delivered.token,
          issuedAtMs: delivered.rotatedAtMs,
          person,
        },
      };
    }
    return { ok: true, identity: { role, scopes: requested, method, deviceId, person } };
  }

  // The secret's holder on the owner's own surface pairs its devices without asking itself.
  const silentOk = secretOk && person;
  if (silentOk) {
    const { token } = await deps.devices.approve({
      deviceId,
      publicKey: device.publicKey,
      role,
      scopes: requested,
      clientId: params.client.id,
      clientMode: params.client.mode,
      displayName: params.client.displayName,
      platform: params.client.platform,
      remoteAddress: peer.remoteAddress,
      approvedVia: 'silent',
    });
    return {
      ok: true,
      identity: {
        role,
        scopes: requested,
        method: 'token',
        deviceId,
        deviceToken: token,
        issuedAtMs: deps.clock.now(),
        person: true,
      },
    };
  }

  // From here on a setup code speaks for the device: it bounds what may be asked, and
  // belongs to the first device that used it.
  const setupCode = bootstrapOk && !secretOk && auth.bootstrapToken ? auth.bootstrapToken : undefined;
  const grant = setupCode ? deps.bootstrap?.grant(setupCode) : undefined;
  if (setupCode && grant) {
    if (grant.claimedBy !== undefined && grant.claimedBy !== deviceId) {
      return refuse('this setup code is already in use by another device', 'SETUP_CODE_IN_USE', {}, 'NOT_PAIRED');
    }
    const beyond = scopesNotHeld(grant.scopes, requested);
    if (beyond.length > 0) {
      return refuse(
        `this setup code does not allow ${beyond.join(', ')} (it allows ${scopeList(grant.scopes)})`,
        'SETUP_CODE_SCOPES',
        { allowedScopes: grant.scopes, requestedScopes: requested },
        'FORBIDDEN',
      );
    }
  }

  // Approved through a setup code: hand over the device token now, and burn the code.
  if (
    paired &&
    scopesCovered &&
    bootstrapOk &&
    auth.bootstrapToken &&
    deps.bootstrap?.claim(auth.bootstrapToken, deviceId) &&
    deps.bootstrap.consume(auth.bootstrapToken)
  ) {
    const rotated = await deps.devices.rotate(deviceId, role, requested);
    return {
      ok: true,
      identity: {
        role,
        scopes: requested,
        method: 'bootstrap-token',
        deviceId,
        deviceToken: rotated.token,
        issuedAtMs: rotated.rotatedAtMs,
        person: false,
      },
    };
  }

  const setupCodeKey = setupCode ? createHash('sha256').update(setupCode).digest('hex') : undefined;
  if (setupCodeKey) {
    const other = deps.pairing
      .list()
      .find((r) => r.setupCodeKey === setupCodeKey && (r.deviceId !== deviceId || r.role !== role));
    if (other || !deps.bootstrap?.claim(setupCode!, deviceId)) {
      return refuse('this setup code already has a pending request', 'SETUP_CODE_IN_USE', {}, 'NOT_PAIRED');
    }
  }
  const reason = !paired ? 'not-paired' : paired.tokens.some((t) => t.role === role) ? 'scope-upgrade' : 'role-upgrade';
  const request = deps.pairing.open({
    deviceId,
    publicKey: device.publicKey,
    clientId: params.client.id,
    clientMode: params.client.mode,
    role,
    scopes: requested,
    displayName: params.client.displayName,
    platform: params.client.platform,
    remoteAddress: peer.remoteAddress,
    silent: false,
    isRepair: paired !== undefined,
    reason,
    viaBootstrap: bootstrapOk,
    setupCodeKey,
    setupCodeIssuerDeviceId: grant?.issuerDeviceId,
  });
  return refuse(
    'pairing required: device is not approved yet',
    'PAIRING_REQUIRED',
    { reason, requestId: request.requestId, deviceId, requestedRole: role, requestedScopes: requested },
    'NOT_PAIRED',
  );
}
