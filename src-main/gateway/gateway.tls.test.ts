import { X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import { connectRaw, openRawSocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { DeviceRegistry } from './auth/device-registry.js';
import { normaliseFingerprint } from './auth/tls-identity.js';
import { GatewayCore } from './gateway-core.js';
import { InsecureBindError, startGatewayServer } from './gateway-server.js';

let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost;

beforeAll(async () => {
  temp = await createTempHome();
  await writeFile(`${temp.home}/hearth.json`, JSON.stringify({ gateway: { tls: { enabled: true } } }));
  host = await startTestHost({ home: temp.home });
});
afterAll(async () => {
  await host.close();
  await temp.cleanup();
});

describe('TLS', () => {
  it('serves wss with a persisted self-signed certificate whose SHA-256 fingerprint is exposed', async () => {
    expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    expect(normaliseFingerprint(host.tlsFingerprint!)).toMatch(/^[0-9a-f]{64}$/);
    const cert = await readFile(`${host.paths.identityDir}/tls-cert.pem`, 'utf8');
    expect(new X509Certificate(cert).fingerprint256).toBe(host.tlsFingerprint);
    const { socket, hello } = await connectRaw(host.wsUrl, { token: host.token, ca: cert });
    expect(hello).toMatchObject({ ok: true });
    socket.close();
  });

  it('refuses plaintext ws:// on the TLS port', async () => {
    await expect(openRawSocket(host.wsUrl.replace('wss:', 'ws:'))).rejects.toThrow();
  });

  it('keeps the same certificate (and pin) across restarts', async () => {
    const fingerprint = host.tlsFingerprint;
    await host.dispose();
    host = await startTestHost({ home: temp.home });
    expect(host.tlsFingerprint).toBe(fingerprint);
  });

  it('will not listen off loopback without TLS', async () => {
    const devices = await DeviceRegistry.open(`${temp.home}/identity`, systemClock, silentLogger);
    const core = new GatewayCore({
      clock: systemClock,
      log: silentLogger,
      version: 't',
      auth: { mode: 'token', token: 'x'.repeat(20) },
      devices,
    });
    await expect(
      startGatewayServer({
        core,
        host: '0.0.0.0',
        port: 0,
        routes: { canvasDir: () => temp.home, version: 't' },
        log: silentLogger,
      }),
    ).rejects.toBeInstanceOf(InsecureBindError);
    core.dispose();
  });
});

describe('password mode', () => {
  it('accepts the password (also sent as token) and refuses a wrong one', async () => {
    const own = await createTempHome();
    await writeFile(`${own.home}/hearth.json`, JSON.stringify({ gateway: { auth: { mode: 'password' } } }));
    const pwHost = await startTestHost({
      home: own.home,
      env: { HEARTH_GATEWAY_PASSWORD: 'correct horse battery staple' },
      capabilities: false,
    });
    try {
      const good = await connectRaw(pwHost.wsUrl, { password: 'correct horse battery staple' });
      expect(good.hello).toMatchObject({ ok: true, payload: { auth: { method: 'password' } } });
      good.socket.close();
      const asToken = await connectRaw(pwHost.wsUrl, { token: 'correct horse battery staple' });
      expect(asToken.hello.ok).toBe(true);
      asToken.socket.close();
      const bad = await connectRaw(pwHost.wsUrl, { password: 'wrong' });
      expect(bad.hello.error).toMatchObject({ code: 'INVALID_REQUEST' });
      const gatewayToken = await connectRaw(pwHost.wsUrl, { token: pwHost.token });
      expect(gatewayToken.hello.ok).toBe(false);
    } finally {
      await pwHost.close();
      await own.cleanup();
    }
  });

  it('refuses to start in password mode without a password', async () => {
    const own = await createTempHome();
    await writeFile(`${own.home}/hearth.json`, JSON.stringify({ gateway: { auth: { mode: 'password' } } }));
    await expect(
      startTestHost({ home: own.home, env: { HEARTH_SECRET_STORE: 'file' }, capabilities: false }),
    ).rejects.toThrow(/no password is stored/);
    await own.cleanup();
  });
});
