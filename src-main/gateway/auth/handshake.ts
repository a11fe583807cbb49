import type { Clock } from '../../base/clock.js';
import {
  type AuthMethod,
  type ConnectParams,
  closeCodes,
  type DetailCode,
  MINIMUM_PROBE_PROTOCOL,
  PROTOCOL_VERSION,
  type Role,
  type WireError,
} from '../../protocol/index.js';
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

/** Setup-code tokens (pairing issue): single use, short lived, pairing only. */
export interface BootstrapTokens {
  /** True when the token is live; does not consume it. */
  check(token: string): boolean;
  consume(token: string): boolean;
}

export interface HandshakeDeps {
  auth: GatewayAuthSettings;
  devices: DeviceRegistry;
  pairing: PairingRequests;
  rateLimiter: AuthRateLimiter;
  bootstrap?: BootstrapTokens;
  clock: Clock;
}

export interface AcceptedIdentity {
  role: Role;
  scopes: string[];
  method: AuthMethod;
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

/** Clients allowed to keep their requested scopes with a shared secret and no device (PROTOCOL.md §4). */
function keepsScopesWithoutDevice(params: ConnectParams, peer: PeerInfo): boolean {
  const { id, mode } = params.client;
  if (id === 'cli' && mode === 'cli') return peer.isDirectLocal && !peer.origin;
  if (id === 'hearth-cli') return peer.isDirectLocal && !peer.origin;
  if (id === 'gateway-client' && mode === 'backend') return peer.isDirectLocal;
  const isControlUi = id === 'hearth-control-ui' || id === 'openclaw-control-ui' || id === 'webchat-ui';
  return isControlUi && peer.isDirectLocal && (!peer.origin || peer.isOwnControlUi);
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
  if (peer.trustedInProcess) return { ok: true, identity: { role, scopes: requested, method: 'local' } };

  const rateLimited = !(peer.isDirectLocal && !peer.origin);
  const source = peer.remoteAddress;
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

  if (!device) {
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
    return { ok: true, identity: { role, scopes: keepsScopesWithoutDevice(params, peer) ? requested : [], method } };
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
      return { ok: true, identity: { role, scopes: requested, method: 'device-token', deviceId } };
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

  const scopesCovered = paired?.tokens.some((t) => t.role === role && requested.every((s) => t.scopes.includes(s)));
  if (paired && scopesCovered && secretOk) {
    if (rateLimited) deps.rateLimiter.recordSuccess(source);
    await deps.devices.touch(deviceId);
    const method: AuthMethod = deps.auth.mode === 'password' ? 'password' : 'token';
    if (paired.awaitingToken) {
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
        },
      };
    }
    return { ok: true, identity: { role, scopes: requested, method, deviceId } };
  }

  const silentOk = secretOk && peer.isDirectLocal && (!peer.origin || peer.isOwnControlUi);
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
      },
    };
  }

  // Approved through a setup code: hand over the device token now, and burn the code.
  if (paired && scopesCovered && bootstrapOk && auth.bootstrapToken && deps.bootstrap?.consume(auth.bootstrapToken)) {
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
      },
    };
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
  });
  return refuse(
    'pairing required: device is not approved yet',
    'PAIRING_REQUIRED',
    { reason, requestId: request.requestId, deviceId, requestedRole: role, requestedScopes: requested },
    'NOT_PAIRED',
  );
}
