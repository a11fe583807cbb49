import type { Clock } from '../../base/clock.js';
import { type Disposable, DisposableStore } from '../../base/disposable.js';
import { encodeSetupCode, GatewayError, notFound, setupLink } from '../../protocol/index.js';
import type { PairedDeviceView } from '../../protocol/methods/devices.js';
import { type BootstrapTokenStore, DEFAULT_SETUP_CODE_SCOPES } from '../auth/bootstrap-tokens.js';
import type { PairedDevice } from '../auth/device-registry.js';
import { assertHoldsScopes, assertMayEscalate, assertPerson, grantsAdmin, widens } from '../auth/grant-policy.js';
import { pairingRequestView } from '../auth/pairing-requests.js';
import { normaliseFingerprint } from '../auth/tls-identity.js';
import type { GatewayCore } from '../gateway-core.js';
import type { MethodRouter } from '../method-router.js';

export interface LanEndpoint {
  urls: string[];
  tlsFingerprint: string;
}

export interface DevicesMethodsDeps {
  core: GatewayCore;
  bootstrap: BootstrapTokenStore;
  clock: Clock;
  /** Makes sure the gateway listens on the LAN with TLS, and says where. */
  ensureLan(): Promise<LanEndpoint>;
}

function deviceView(device: PairedDevice, online: boolean): PairedDeviceView {
  return {
    deviceId: device.deviceId,
    displayName: device.displayName,
    platform: device.platform,
    clientId: device.clientId,
    role: device.role,
    scopes: device.scopes,
    pairedAtMs: device.pairedAtMs,
    lastSeenMs: device.lastSeenMs,
    approvedVia: device.approvedVia,
    online,
    roles: device.tokens.map((t) => ({ role: t.role, scopes: t.scopes, issuedAtMs: t.issuedAtMs })),
  };
}

/** Every scope a device's tokens hold. */
function heldBy(device: PairedDevice): string[] {
  return [...new Set(device.tokens.flatMap((t) => t.scopes))];
}

function selfApproval(message: string): GatewayError {
  return new GatewayError('FORBIDDEN', message, { code: 'SELF_APPROVAL' });
}

/**
 * device.pair.* and device.token.*: a person approves devices; revocation takes effect at
 * once. Who may give what is grant-policy.ts: the ceiling, a person, admin to escalate.
 */
export function registerDevicesMethods(router: MethodRouter, deps: DevicesMethodsDeps): Disposable {
  const { core } = deps;
  const store = new DisposableStore();
  const isOnline = (deviceId: string) => core.callers().some((c) => c.deviceId === deviceId);

  store.add(
    router.handle('device.pair.list', () => ({
      pending: core.pairing.list().map(pairingRequestView),
      paired: core.devices.list().map((d) => deviceView(d, isOnline(d.deviceId))),
    })),
  );

  store.add(
    router.handle('device.pair.approve', async ({ requestId, scopes }, call) => {
      const request = core.pairing.get(requestId);
      if (!request)
        throw notFound(`unknown or expired pairing request: ${requestId}`, { reason: 'PAIRING_REQUEST_NOT_FOUND' });
      const granted = scopes ?? request.scopes;
      const widened = granted.filter((s) => !request.scopes.includes(s));
      if (widened.length > 0) {
        throw new GatewayError(
          'INVALID_REQUEST',
          `cannot grant scopes the device did not ask for: ${widened.join(', ')}`,
        );
      }
      const { caller } = call;
      if (caller.deviceId !== undefined && caller.deviceId === request.deviceId)
        throw selfApproval('a device cannot approve its own pairing request');
      // A person who made the code may approve what it brings in; a device may not.
      if (!caller.person && caller.deviceId !== undefined && caller.deviceId === request.setupCodeIssuerDeviceId)
        throw selfApproval('a device cannot approve a request that its own setup code brought in');
      assertPerson(caller, 'approving a device');
      assertHoldsScopes(caller, granted, 'approve');
      const current = core.devices.get(request.deviceId)?.tokens.find((t) => t.role === request.role)?.scopes;
      const isNewDevice = core.devices.get(request.deviceId) === undefined;
      if (grantsAdmin(granted) || (!isNewDevice && widens(current, granted)))
        assertMayEscalate(caller, 'granting operator.admin or more than a device already holds');
      const { device } = await core.devices.approve(
        {
          deviceId: request.deviceId,
          publicKey: request.publicKey,
          role: request.role,
          scopes: granted,
          clientId: request.clientId,
          clientMode: request.clientMode,
          displayName: request.displayName,
          platform: request.platform,
          remoteAddress: request.remoteAddress,
          approvedVia:
            call.caller.clientId === 'hearth-desktop'
              ? 'desktop'
              : call.caller.clientMode === 'cli'
                ? 'cli'
                : 'operator',
        },
        { deliverOnNextConnect: true },
      );
      core.pairing.resolve(requestId, 'approved');
      return { requestId, device: deviceView(device, false) };
    }),
  );

  store.add(
    router.handle('device.pair.reject', ({ requestId }) => {
      const request = core.pairing.resolve(requestId, 'rejected');
      if (!request)
        throw notFound(`unknown or expired pairing request: ${requestId}`, { reason: 'PAIRING_REQUEST_NOT_FOUND' });
      return { requestId, deviceId: request.deviceId };
    }),
  );

  store.add(
    router.handle('device.pair.remove', async ({ deviceId }, call) => {
      const device = core.devices.get(deviceId);
      if (!device) throw notFound(`unknown device: ${deviceId}`);
      assertHoldsScopes(call.caller, heldBy(device), 'revoke');
      const removed = await core.devices.remove(deviceId);
      if (!removed) throw notFound(`unknown device: ${deviceId}`);
      return { deviceId, removed, closedConnections: core.closeDeviceConnections(deviceId, 'device removed') };
    }),
  );

  store.add(
    router.handle('device.pair.setup', async ({ ttlMs, scopes }, call) => {
      const codeScopes = scopes ?? DEFAULT_SETUP_CODE_SCOPES;
      assertPerson(call.caller, 'issuing a setup code');
      assertHoldsScopes(call.caller, codeScopes, 'setup');
      if (grantsAdmin(codeScopes)) assertMayEscalate(call.caller, 'a setup code for operator.admin');
      const lan = await deps.ensureLan();
      const fingerprint = normaliseFingerprint(lan.tlsFingerprint);
      if (!fingerprint) throw new GatewayError('UNAVAILABLE', 'the gateway has no TLS certificate to pin');
      const issued = deps.bootstrap.issue({ ttlMs, scopes: codeScopes, issuerDeviceId: call.caller.deviceId });
      const code = encodeSetupCode({
        version: 1,
        urls: lan.urls,
        bootstrapToken: issued.token,
        tlsFingerprint: fingerprint,
        expiresAt: issued.expiresAt,
      });
      const link = setupLink(code);
      // A phone's camera opens https links: the QR leads to the Control UI served by the LAN
      // listener, which reads the code from the fragment (never sent to a server).
      const webUrl = `${lan.urls[0]!.replace(/^wss:/, 'https:')}/#pair=${code}`;
      const [qrSvg, qrText] = await Promise.all([
        qrCodes().then((QRCode) => QRCode.toString(webUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 })),
        qrCodes().then((QRCode) =>
          QRCode.toString(webUrl, { type: 'terminal', small: true, errorCorrectionLevel: 'L' }),
        ),
      ]);
      return {
        code,
        link,
        webUrl,
        urls: lan.urls,
        tlsFingerprint: fingerprint,
        expiresAt: issued.expiresAt,
        scopes: issued.scopes,
        qrSvg,
        qrText,
      };
    }),
  );

  store.add(
    router.handle('device.token.rotate', async ({ deviceId, role, scopes }, call) => {
      const device = core.devices.get(deviceId);
      if (!device) throw notFound(`unknown device: ${deviceId}`);
      const current = device.tokens.find((t) => t.role === role)?.scopes;
      const next = scopes ?? current ?? device.scopes;
      // Neither what the token holds now nor what it will hold may exceed the caller.
      assertHoldsScopes(call.caller, [...(current ?? []), ...next], 'rotate');
      if (widens(current, next) || grantsAdmin(next))
        assertMayEscalate(call.caller, 'rotating a token to operator.admin or to more than it holds');
      const rotated = await core.devices.rotate(deviceId, role, next);
      const own = call.caller.deviceId === deviceId;
      // Others' tokens are never shown: the device picks its new token up on its next connect.
      if (!own) await core.devices.markAwaitingToken(deviceId);
      // The old token is dead: close the device's other sockets now, and the caller's own
      // socket only once it has the new token in hand.
      core.closeDeviceConnections(deviceId, 'device token rotated', { except: own ? call.caller.connId : undefined });
      if (own) {
        const closeOwn = () => core.closeConnection(call.caller.connId, 'device token rotated');
        if (call.afterResponse) call.afterResponse(closeOwn);
        else closeOwn();
      }
      return {
        deviceId,
        role,
        scopes: rotated.scopes,
        rotatedAtMs: rotated.rotatedAtMs,
        tokenDelivery: own ? ('returned' as const) : ('next-connect' as const),
        ...(own ? { token: rotated.token } : {}),
      };
    }),
  );

  store.add(
    router.handle('device.token.revoke', async ({ deviceId, role }, call) => {
      const device = core.devices.get(deviceId);
      if (!device) throw notFound(`unknown device: ${deviceId}`);
      assertHoldsScopes(call.caller, device.tokens.find((t) => t.role === role)?.scopes ?? [], 'revoke');
      await core.devices.revoke(deviceId, role);
      return {
        deviceId,
        role,
        revokedAtMs: deps.clock.now(),
        closedConnections: core.closeDeviceConnections(deviceId, 'device token revoked'),
      };
    }),
  );
  return store;
}

/** The QR encoder (~10 MB with its PNG support) loads when a setup code is first made, not at start. */
let qrcode: Promise<typeof import('qrcode')> | undefined;
function qrCodes(): Promise<typeof import('qrcode')> {
  qrcode ??= import('qrcode').then((module) => module.default ?? module);
  return qrcode;
}
