import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { createTempHome } from '../../testing/temp-home.js';
import { AuthRateLimiter } from './auth-rate-limit.js';
import { authenticateBearer, type BearerDeps, bearerOf } from './bearer-token.js';
import { DeviceRegistry } from './device-registry.js';
import type { PeerInfo } from './handshake.js';

// The HTTP APIs' bearer check: the handshake's rules for who holds which scopes, over HTTP.

const loopback: PeerInfo = { remoteAddress: '127.0.0.1', isDirectLocal: true, isOwnControlUi: false };
const remote: PeerInfo = { remoteAddress: '192.0.2.7', isDirectLocal: false, isOwnControlUi: false };

let temp: { home: string; cleanup(): Promise<void> };
let deps: BearerDeps;
let deviceToken: string;

beforeEach(async () => {
  temp = await createTempHome();
  const clock = createFakeClock();
  const devices = await DeviceRegistry.open(temp.home, clock, silentLogger);
  ({ token: deviceToken } = await devices.approve({
    deviceId: 'phone-1',
    publicKey: 'pk',
    role: 'operator',
    scopes: ['operator.read'],
    clientId: 'hearth-mobile',
    clientMode: 'ui',
    approvedVia: 'operator',
  }));
  deps = { auth: { mode: 'token', token: 'the-secret' }, devices, rateLimiter: new AuthRateLimiter(clock) };
});
afterEach(async () => {
  await temp.cleanup();
});

describe('bearer tokens', () => {
  it('reads only a Bearer Authorization header', () => {
    expect(bearerOf('Bearer abc')).toBe('abc');
    expect(bearerOf('bearer  abc ')).toBe('abc');
    expect(bearerOf('Basic abc')).toBeUndefined();
    expect(bearerOf(undefined)).toBeUndefined();
  });

  it('gives the gateway token every scope on loopback, and refuses it from elsewhere', async () => {
    const local = await authenticateBearer('the-secret', loopback, deps);
    expect(local).toMatchObject({ ok: true, identity: { method: 'token', person: true } });
    if (local.ok) expect(local.identity.scopes).toContain('operator.admin');
    expect(await authenticateBearer('the-secret', remote, deps)).toMatchObject({ ok: false, status: 403 });
  });

  it('gives a device token exactly its own scopes, anywhere, and never makes it a person', async () => {
    expect(await authenticateBearer(deviceToken, remote, deps)).toEqual({
      ok: true,
      identity: { scopes: ['operator.read'], method: 'device-token', deviceId: 'phone-1', person: false },
    });
  });

  it('refuses a page of another site whatever it holds', async () => {
    const page = { ...loopback, origin: 'https://evil.example' };
    expect(await authenticateBearer('the-secret', page, deps)).toMatchObject({ ok: false, status: 403 });
  });

  it('needs a token unless auth mode is none, and then only on loopback', async () => {
    expect(await authenticateBearer(undefined, loopback, deps)).toMatchObject({ ok: false, status: 401 });
    const open = { ...deps, auth: { mode: 'none' as const } };
    expect(await authenticateBearer(undefined, loopback, open)).toMatchObject({ ok: true });
    expect(await authenticateBearer(undefined, remote, open)).toMatchObject({ ok: false, status: 401 });
  });

  it('locks out an address after repeated wrong guesses, but never loopback', async () => {
    for (let i = 0; i < 10; i++) {
      expect(await authenticateBearer(`guess-${i}`, remote, deps)).toMatchObject({ ok: false, status: 401 });
    }
    expect(await authenticateBearer(deviceToken, remote, deps)).toMatchObject({ ok: false, status: 429 });
    for (let i = 0; i < 12; i++) await authenticateBearer(`guess-${i}`, loopback, deps);
    expect(await authenticateBearer('the-secret', loopback, deps)).toMatchObject({ ok: true });
  });
});
