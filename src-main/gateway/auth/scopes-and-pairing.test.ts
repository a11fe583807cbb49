import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSetupCode } from '../../protocol/index.js';
import {
  type AnyFrame,
  type ConnectOptions,
  connectRaw,
  createTestDeviceKey,
  type RawGatewaySocket,
  type TestDeviceKey,
} from '../../testing/raw-gateway-socket.js';
import { startTestHost, type TestHost } from '../../testing/test-host.js';
import type { GatewayCore } from '../gateway-core.js';

// Issue 17, "Scopes and pairing": nobody grants, approves or rotates a scope it does not
// hold; letting a device in is a person's act; widening or handing out admin needs
// operator.admin and a person; one setup code opens at most one pending request; rotating
// your own token hands you the new one before the socket closes.

const PHONE = ['operator.read', 'operator.write', 'operator.approvals'];
const ALL = ['operator.admin', 'operator.read', 'operator.write', 'operator.approvals', 'operator.pairing'];

let host: TestHost;
let core: GatewayCore;
let cert: string;
let admin: RawGatewaySocket;
const open: RawGatewaySocket[] = [];

beforeAll(async () => {
  host = await startTestHost({ lanBind: '127.0.0.1', capabilities: false });
  core = host.gateway as GatewayCore;
  admin = await person(ALL);
  await host.ensureLan();
  cert = await readFile(join(host.paths.identityDir, 'tls-cert.pem'), 'utf8');
});
afterAll(async () => {
  for (const socket of open) socket.close();
  await host.close();
});

function track<T extends { socket: RawGatewaySocket }>(result: T): T {
  open.push(result.socket);
  return result;
}

/** The local CLI with the gateway token: a person at this computer, with the scopes it asks for. */
async function person(scopes: string[]): Promise<RawGatewaySocket> {
  const { socket, hello } = track(await connectRaw(host.wsUrl, { token: host.token, scopes }));
  expect(hello).toMatchObject({ ok: true, payload: { auth: { scopes } } });
  return socket;
}

/** A device paired (silently, by the token's holder) with `scopes`, connected with its own device token only. */
async function pairedDevice(scopes: string[]) {
  const key = createTestDeviceKey();
  const first = await connectRaw(host.wsUrl, { token: host.token, device: key, scopes });
  const deviceToken = (first.hello.payload as { auth: { deviceToken: string } }).auth.deviceToken;
  expect(deviceToken).toBeTruthy();
  first.socket.close();
  const { socket, hello } = track(await connectRaw(host.wsUrl, { deviceToken, device: key, scopes }));
  expect(hello).toMatchObject({ ok: true, payload: { auth: { method: 'device-token', scopes } } });
  return { key, deviceToken, socket };
}

async function setupCode(scopes?: string[]) {
  const res = await admin.request('device.pair.setup', scopes ? { scopes } : {});
  expect(res.ok).toBe(true);
  const payload = res.payload as { code: string; urls: string[]; scopes: string[] };
  return {
    bootstrapToken: decodeSetupCode(payload.code).bootstrapToken,
    lanUrl: payload.urls[0]!,
    scopes: payload.scopes,
  };
}

/** A device knocking on the LAN listener with a setup code, as a phone does. */
async function knock(
  code: { bootstrapToken: string; lanUrl: string },
  key: TestDeviceKey,
  options: ConnectOptions = {},
) {
  const { socket, hello } = await connectRaw(code.lanUrl, {
    bootstrapToken: code.bootstrapToken,
    device: key,
    scopes: PHONE,
    ca: cert,
    ...options,
  });
  socket.close();
  return hello;
}

async function pendingRequest(
  code: { bootstrapToken: string; lanUrl: string },
  key: TestDeviceKey,
  options: ConnectOptions = {},
) {
  const hello = await knock(code, key, options);
  expect(hello.error).toMatchObject({ code: 'NOT_PAIRED', details: { code: 'PAIRING_REQUIRED' } });
  return (hello.error!.details as { requestId: string }).requestId;
}

function refusal(res: AnyFrame) {
  return { code: res.error?.code, detail: (res.error?.details as { code?: string } | undefined)?.code };
}

describe('a pairing-only device cannot make itself admin', () => {
  it('cannot issue setup codes, whatever scopes it names', async () => {
    const attacker = await pairedDevice(['operator.pairing']);
    for (const params of [{}, { scopes: ['operator.pairing'] }, { scopes: ['operator.admin'] }]) {
      const res = await attacker.socket.request('device.pair.setup', params);
      expect(res.ok).toBe(false);
      expect(res.error?.code).toBe('FORBIDDEN');
    }
  });

  it('cannot pair a second key asking for admin, nor approve a request it could not grant', async () => {
    const attacker = await pairedDevice(['operator.pairing']);
    const code = await setupCode();
    const second = createTestDeviceKey();
    // A setup code bounds what may be asked: admin is beyond it.
    const greedy = await knock(code, second, { scopes: ['operator.admin'] });
    expect(refusal(greedy)).toEqual({ code: 'FORBIDDEN', detail: 'SETUP_CODE_SCOPES' });
    expect(core.pairing.list().some((r) => r.deviceId === second.id)).toBe(false);

    const requestId = await pendingRequest(code, second);
    const approve = await attacker.socket.request('device.pair.approve', { requestId });
    expect(approve.error?.code).toBe('FORBIDDEN');
    expect(core.devices.get(second.id)).toBeUndefined();
    expect(core.pairing.get(requestId)).toBeDefined();
  });

  it('cannot widen any token by rotating it, its own or another device’s', async () => {
    const attacker = await pairedDevice(['operator.pairing']);
    const victim = await pairedDevice(['operator.admin']);
    const reader = await pairedDevice(['operator.read']);
    const attempts = [
      { deviceId: attacker.key.id, role: 'operator', scopes: ['operator.admin'] },
      { deviceId: attacker.key.id, role: 'operator', scopes: ['operator.pairing', 'operator.read'] },
      { deviceId: reader.key.id, role: 'operator', scopes: ['operator.read', 'operator.write'] },
      { deviceId: reader.key.id, role: 'operator', scopes: ['operator.pairing'] },
      // A token holding more than the caller: not the caller's to rotate (nor to narrow).
      { deviceId: victim.key.id, role: 'operator' },
      { deviceId: victim.key.id, role: 'operator', scopes: ['operator.pairing'] },
      { deviceId: reader.key.id, role: 'node', scopes: [] },
    ];
    for (const params of attempts) {
      const res = await attacker.socket.request('device.token.rotate', params);
      expect(res.error?.code, JSON.stringify(params)).toBe('FORBIDDEN');
    }
    expect(core.devices.get(reader.key.id)?.tokens).toEqual([
      expect.objectContaining({ role: 'operator', scopes: ['operator.read'] }),
    ]);
    // Its own token still asks for no more than it was given.
    const reconnect = await connectRaw(host.wsUrl, {
      deviceToken: attacker.deviceToken,
      device: attacker.key,
      scopes: ['operator.pairing', 'operator.admin'],
    });
    expect(refusal(reconnect.hello)).toEqual({ code: 'INVALID_REQUEST', detail: 'AUTH_SCOPE_MISMATCH' });
  });

  it('cannot revoke or remove a device that holds more than it does', async () => {
    const attacker = await pairedDevice(['operator.pairing']);
    const victim = await pairedDevice(['operator.read', 'operator.write']);
    const revoke = await attacker.socket.request('device.token.revoke', { deviceId: victim.key.id, role: 'operator' });
    expect(refusal(revoke)).toEqual({ code: 'FORBIDDEN', detail: 'SCOPE_NOT_HELD' });
    const remove = await attacker.socket.request('device.pair.remove', { deviceId: victim.key.id });
    expect(refusal(remove)).toEqual({ code: 'FORBIDDEN', detail: 'SCOPE_NOT_HELD' });
    expect(core.devices.get(victim.key.id)?.tokens).toHaveLength(1);
  });
});

describe('approving', () => {
  it('a device never approves its own request (here: a role upgrade it asked for)', async () => {
    const device = await pairedDevice(['operator.admin']);
    const code = await setupCode(['operator.read']);
    const requestId = await pendingRequest(code, device.key, {
      role: 'node',
      clientId: 'node-host',
      clientMode: 'node',
      scopes: [],
    });
    const res = await device.socket.request('device.pair.approve', { requestId });
    expect(refusal(res)).toEqual({ code: 'FORBIDDEN', detail: 'SELF_APPROVAL' });
    expect(core.devices.get(device.key.id)?.tokens.map((t) => t.role)).toEqual(['operator']);
    await admin.request('device.pair.reject', { requestId });
  });

  it('a person whose own window is a paired device may approve what its own setup code brought in', async () => {
    const key = createTestDeviceKey();
    const { socket, hello } = track(await connectRaw(host.wsUrl, { token: host.token, device: key, scopes: ALL }));
    expect(hello).toMatchObject({ ok: true, payload: { auth: { method: 'token' } } });
    const setup = await socket.request('device.pair.setup', {});
    const payload = setup.payload as { code: string; urls: string[] };
    const code = { bootstrapToken: decodeSetupCode(payload.code).bootstrapToken, lanUrl: payload.urls[0]! };
    const phone = createTestDeviceKey();
    const requestId = await pendingRequest(code, phone);
    expect(core.pairing.get(requestId)?.setupCodeIssuerDeviceId).toBe(key.id);
    expect(await socket.request('device.pair.approve', { requestId })).toMatchObject({ ok: true });
    expect(core.devices.get(phone.id)?.tokens[0]?.scopes).toEqual(PHONE);
  });

  it('a paired device’s token is not a person, even with admin', async () => {
    const boss = await pairedDevice(['operator.admin']);
    const requestId = await pendingRequest(await setupCode(), createTestDeviceKey());
    const res = await boss.socket.request('device.pair.approve', { requestId });
    expect(refusal(res)).toEqual({ code: 'FORBIDDEN', detail: 'PERSON_REQUIRED' });
    await admin.request('device.pair.reject', { requestId });
  });

  it('the approver must hold every scope it grants', async () => {
    const pairingOnly = await person(['operator.pairing']);
    const key = createTestDeviceKey();
    const requestId = await pendingRequest(await setupCode(), key);
    const res = await pairingOnly.request('device.pair.approve', { requestId });
    expect(refusal(res)).toEqual({ code: 'FORBIDDEN', detail: 'SCOPE_NOT_HELD' });
    // Narrowing to what it holds is still beyond it: it holds none of the phone's scopes.
    const narrowed = await pairingOnly.request('device.pair.approve', { requestId, scopes: ['operator.read'] });
    expect(refusal(narrowed)).toEqual({ code: 'FORBIDDEN', detail: 'SCOPE_NOT_HELD' });
    expect(core.devices.get(key.id)).toBeUndefined();
    // A person who holds them lets it in (no admin needed for a new device without admin).
    const holder = await person([...PHONE, 'operator.pairing']);
    expect(await holder.request('device.pair.approve', { requestId })).toMatchObject({ ok: true });
    expect(core.devices.get(key.id)?.tokens[0]?.scopes).toEqual(PHONE);
  });

  it('widening a paired device needs operator.admin and a person', async () => {
    const reader = await pairedDevice(['operator.read']);
    const requestId = await pendingRequest(await setupCode(), reader.key, {
      scopes: ['operator.read', 'operator.write'],
    });
    expect(core.pairing.get(requestId)?.reason).toBe('scope-upgrade');
    const nonAdmin = await person([...PHONE, 'operator.pairing']);
    const refused = await nonAdmin.request('device.pair.approve', { requestId });
    expect(refusal(refused)).toEqual({ code: 'FORBIDDEN', detail: 'MISSING_SCOPE' });
    expect(core.devices.get(reader.key.id)?.tokens[0]?.scopes).toEqual(['operator.read']);
    expect(await admin.request('device.pair.approve', { requestId })).toMatchObject({ ok: true });
    expect(core.devices.get(reader.key.id)?.tokens[0]?.scopes).toEqual(['operator.read', 'operator.write']);
  });
});

describe('setup codes', () => {
  it('carry their scopes: never beyond the issuer’s, admin only from an admin person', async () => {
    const reader = await person(['operator.read', 'operator.pairing']);
    expect(refusal(await reader.request('device.pair.setup', {}))).toEqual({
      code: 'FORBIDDEN',
      detail: 'SCOPE_NOT_HELD',
    });
    const narrow = await reader.request('device.pair.setup', { scopes: ['operator.read'] });
    expect(narrow).toMatchObject({ ok: true, payload: { scopes: ['operator.read'] } });
    const wide = await reader.request('device.pair.setup', { scopes: ['operator.admin'] });
    expect(refusal(wide)).toEqual({ code: 'FORBIDDEN', detail: 'SCOPE_NOT_HELD' });
    expect((await setupCode(['operator.admin'])).scopes).toEqual(['operator.admin']);
    expect((await setupCode()).scopes).toEqual(PHONE);
  });

  it('open at most one pending request: the first device claims the code', async () => {
    const code = await setupCode();
    const first = createTestDeviceKey();
    const requestId = await pendingRequest(code, first);
    // The same device retrying gets its request back.
    expect(await pendingRequest(code, first)).toBe(requestId);
    const other = await knock(code, createTestDeviceKey());
    expect(refusal(other)).toEqual({ code: 'NOT_PAIRED', detail: 'SETUP_CODE_IN_USE' });
    // Nor a second request from the same key for another role.
    const asNode = await knock(code, first, { role: 'node', clientId: 'node-host', clientMode: 'node', scopes: [] });
    expect(refusal(asNode)).toEqual({ code: 'NOT_PAIRED', detail: 'SETUP_CODE_IN_USE' });
    await admin.request('device.pair.reject', { requestId });
    // Still claimed after a decline: the code never serves another device.
    expect(refusal(await knock(code, createTestDeviceKey()))).toEqual({
      code: 'NOT_PAIRED',
      detail: 'SETUP_CODE_IN_USE',
    });
  });
});

describe('device.token.rotate', () => {
  it('widening needs operator.admin and a person; the same rotation by an admin device is refused', async () => {
    const reader = await pairedDevice(['operator.read']);
    const wider = { deviceId: reader.key.id, role: 'operator', scopes: ['operator.read', 'operator.write'] };
    const nonAdmin = await person([...PHONE, 'operator.pairing']);
    expect(refusal(await nonAdmin.request('device.token.rotate', wider))).toEqual({
      code: 'FORBIDDEN',
      detail: 'MISSING_SCOPE',
    });
    const adminDevice = await pairedDevice(['operator.admin']);
    expect(refusal(await adminDevice.socket.request('device.token.rotate', wider))).toEqual({
      code: 'FORBIDDEN',
      detail: 'PERSON_REQUIRED',
    });
    expect(core.devices.get(reader.key.id)?.tokens[0]?.scopes).toEqual(['operator.read']);
    expect(await admin.request('device.token.rotate', wider)).toMatchObject({
      ok: true,
      payload: { scopes: wider.scopes, tokenDelivery: 'next-connect' },
    });
    // Narrowing what one holds is fine without admin.
    const narrow = { deviceId: reader.key.id, role: 'operator', scopes: ['operator.read'] };
    expect(await nonAdmin.request('device.token.rotate', narrow)).toMatchObject({ ok: true });
  });

  it('rotating your own token answers with the new token before the old socket closes', async () => {
    const device = await pairedDevice(['operator.read', 'operator.pairing']);
    const sibling = track(
      await connectRaw(host.wsUrl, { deviceToken: device.deviceToken, device: device.key, scopes: ['operator.read'] }),
    );
    const res = await device.socket.request('device.token.rotate', { deviceId: device.key.id, role: 'operator' });
    expect(res).toMatchObject({ ok: true, payload: { tokenDelivery: 'returned' } });
    const token = (res.payload as { token: string }).token;
    expect(token).toMatch(/.{16,}/);
    expect((await device.socket.closed).code).toBe(1008);
    expect((await sibling.socket.closed).code).toBe(1008);
    const again = track(
      await connectRaw(host.wsUrl, { deviceToken: token, device: device.key, scopes: ['operator.read'] }),
    );
    expect(again.hello).toMatchObject({ ok: true, payload: { auth: { method: 'device-token' } } });
    const old = await connectRaw(host.wsUrl, {
      deviceToken: device.deviceToken,
      device: device.key,
      scopes: ['operator.read'],
    });
    expect(refusal(old.hello)).toEqual({ code: 'INVALID_REQUEST', detail: 'AUTH_DEVICE_TOKEN_MISMATCH' });
  });
});
