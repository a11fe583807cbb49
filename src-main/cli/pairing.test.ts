import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { decodeSetupCode, encodeSetupCode } from '../protocol/index.js';
import { connectParams, openRawSocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { createCliContext } from './cli-context.js';
import { connectToGateway, localGatewayTarget } from './gateway-connection.js';
import { connectToPairedGateway, pairWithSetupCode } from './pair-remote.js';
import { assertTransportAllowed } from './pinned-websocket.js';
import { RemoteIdentityStore } from './remote-identity.js';
import { runCli } from './run-cli.js';

let desktop: TestHost;
let phoneHome: { home: string; cleanup(): Promise<void> };

beforeEach(async () => {
  desktop = await startTestHost({ lanBind: '127.0.0.1' });
  phoneHome = await createTempHome();
});
afterEach(async () => {
  await desktop.close();
  await phoneHome.cleanup();
});

function contextFor(home: string, env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  const context = createCliContext({
    env: { HEARTH_HOME: home, ...env },
    clock: systemClock,
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    readStdin: async () => '',
  });
  return { context, out };
}

async function desktopCli(args: string[]) {
  const { context, out } = contextFor(desktop.paths.home, { HEARTH_PORT: String(desktop.port) });
  const code = await runCli(args, context);
  return { code, ...out };
}

async function makeSetupCode() {
  const result = await desktopCli(['pair', 'qr', '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { code: string; link: string; urls: string[]; tlsFingerprint: string };
}

/** Approves whatever is pending as soon as it appears, through the CLI (as a person at the desktop would). */
async function approveNextRequest(): Promise<string> {
  for (;;) {
    const list = JSON.parse((await desktopCli(['devices', 'list', '--json'])).stdout) as {
      pending: { requestId: string }[];
    };
    const request = list.pending[0];
    if (request) {
      expect((await desktopCli(['devices', 'approve', request.requestId])).code).toBe(0);
      return request.requestId;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('pairing a remote client', () => {
  it('pairs over pinned TLS, gets approved via the CLI, reconnects with its device token, and is revoked', async () => {
    const setup = await makeSetupCode();
    expect(setup.urls[0]).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
    expect(setup.link).toMatch(/^hearth:\/\/pair\?code=/);
    expect(decodeSetupCode(setup.code).bootstrapToken).not.toBe(desktop.token);
    expect(setup.code).not.toContain(desktop.token);

    const phone = contextFor(phoneHome.home);
    const [paired] = await Promise.all([
      pairWithSetupCode(phone.context, setup.link, { pollMs: 50 }),
      approveNextRequest(),
    ]);
    expect(phone.out.stderr).toContain('Waiting for approval on the desktop');
    expect(await paired.client.request('health', {})).toMatchObject({ ok: true });
    paired.client.dispose();

    // Later: identity + device token + pin from the phone's own HEARTH_HOME.
    const again = await connectToPairedGateway(phone.context, paired.url);
    expect(again?.state.hello?.auth).toMatchObject({
      method: 'device-token',
      scopes: ['operator.read', 'operator.write', 'operator.approvals'],
    });

    // Revocation closes the live socket at once and the token stops working.
    const listed = JSON.parse((await desktopCli(['devices', 'list', '--json'])).stdout) as {
      paired: { deviceId: string; online: boolean }[];
    };
    const phoneDevice = listed.paired.find((d) => d.online)!;
    let watching: Disposable | undefined;
    const closed = new Promise((resolve) => {
      watching = again!.onDidChangeState((s) => s.status === 'disconnected' && resolve(s));
    });
    const revoke = await desktopCli(['devices', 'revoke', phoneDevice.deviceId]);
    expect(revoke.stdout).toMatch(/closed 1 connection/);
    await closed;
    watching?.dispose();
    again!.dispose();
    await expect(connectToPairedGateway(phone.context, paired.url)).rejects.toThrow(/device token mismatch/);
  });

  it('refuses a reused setup code', async () => {
    const setup = await makeSetupCode();
    const phone = contextFor(phoneHome.home);
    const [paired] = await Promise.all([
      pairWithSetupCode(phone.context, setup.code, { pollMs: 50 }),
      approveNextRequest(),
    ]);
    paired.client.dispose();
    const other = await createTempHome();
    try {
      await expect(pairWithSetupCode(contextFor(other.home).context, setup.code, { pollMs: 50 })).rejects.toThrow(
        /setup code is invalid, expired or already used/,
      );
    } finally {
      await other.cleanup();
    }
  });

  it('refuses an expired code and a wrong bootstrap token', async () => {
    const setup = decodeSetupCode((await makeSetupCode()).code);
    const phone = contextFor(phoneHome.home);
    const expired = encodeSetupCode({ ...setup, expiresAt: Date.now() - 1 });
    await expect(pairWithSetupCode(phone.context, expired)).rejects.toThrow(/setup code has expired/);
    const forged = encodeSetupCode({ ...setup, bootstrapToken: 'x'.repeat(32) });
    await expect(pairWithSetupCode(phone.context, forged, { pollMs: 50 })).rejects.toThrow(
      /setup code is invalid, expired or already used/,
    );
  });

  it('locks out a source that brute-forces bootstrap tokens', async () => {
    const setup = decodeSetupCode((await makeSetupCode()).code);
    const phone = contextFor(phoneHome.home);
    for (let i = 0; i < 10; i++) {
      const guess = encodeSetupCode({ ...setup, bootstrapToken: `guess-${i}-${'y'.repeat(24)}` });
      await expect(pairWithSetupCode(phone.context, guess, { pollMs: 50 })).rejects.toThrow();
    }
    // Even the right code is refused during the lockout.
    await expect(pairWithSetupCode(phone.context, encodeSetupCode(setup), { pollMs: 50 })).rejects.toThrow(
      /too many failed attempts/,
    );
  });

  it('refuses a gateway whose certificate no longer matches the pin, without re-pinning', async () => {
    const setup = await makeSetupCode();
    const phone = contextFor(phoneHome.home);
    const [paired] = await Promise.all([
      pairWithSetupCode(phone.context, setup.code, { pollMs: 50 }),
      approveNextRequest(),
    ]);
    paired.client.dispose();
    // The desktop comes back with a new certificate (as an impostor on the same address would).
    await desktop.dispose();
    await rm(`${desktop.paths.identityDir}/tls-cert.pem`);
    await rm(`${desktop.paths.identityDir}/tls-key.pem`);
    desktop = await startTestHost({ home: desktop.paths.home, lanBind: '127.0.0.1' });
    const lan = await desktop.ensureLan();
    const lanUrl = lan.urls[0]!;
    const known = await RemoteIdentityStore.open(`${phoneHome.home}/identity`);
    const entry = await known.lookup(paired.url);
    await known.remember(lanUrl, entry!);
    await expect(connectToPairedGateway(phone.context, lanUrl)).rejects.toThrow(
      /TLS certificate changed \(pinned sha256:[0-9a-f]{64}, got sha256:[0-9a-f]{64}\); refusing/,
    );
    expect((await known.lookup(lanUrl))?.tlsFingerprint).toBe(entry!.tlsFingerprint);
  });
});

describe('what a paired phone may do', () => {
  it('with operator.read it cannot resolve approvals or change config', async () => {
    const setup = await makeSetupCode();
    const phone = contextFor(phoneHome.home);
    const [paired] = await Promise.all([
      pairWithSetupCode(phone.context, setup.code, { pollMs: 50, scopes: ['operator.read'] }),
      approveNextRequest(),
    ]);
    await expect(paired.client.call('config.set', { raw: '{}' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'missing scope: operator.admin',
    });
    await expect(
      paired.client.call('exec.approval.resolve', { id: 'x', decision: 'allow-once' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(paired.client.call('device.pair.list', {})).rejects.toMatchObject({
      message: 'missing scope: operator.pairing',
    });
    paired.client.dispose();
  });

  it('a shared-token client on the LAN listener is treated as remote (no silent pairing, no scopes)', async () => {
    const lan = await desktop.ensureLan();
    const { socket, hello } = await connectRawInsecure(lan.urls[0]!, desktop.token);
    expect((hello.payload as { auth: { scopes: string[] } }).auth.scopes).toEqual([]);
    socket.close();
  });
});

describe('transport rules', () => {
  it('refuses plaintext ws:// to anything but loopback', () => {
    expect(() => assertTransportAllowed('ws://192.168.1.20:18790')).toThrow(
      /refusing plaintext ws:\/\/192\.168\.1\.20:18790/,
    );
    expect(() => assertTransportAllowed('ws://127.0.0.1:18790')).not.toThrow();
    expect(() => assertTransportAllowed('wss://192.168.1.20:18791')).not.toThrow();
  });

  it('the CLI refuses a plaintext remote URL before connecting', async () => {
    const { context } = contextFor(phoneHome.home);
    const target = await localGatewayTarget(context.paths(), { url: 'ws://10.0.0.5:18790', env: {} });
    await expect(connectToGateway(target)).rejects.toThrow(/refusing plaintext/);
  });
});

async function connectRawInsecure(url: string, token: string) {
  const socket = await openRawSocket(url, { rejectUnauthorized: false });
  const challenge = await socket.challenge();
  const hello = await socket.request('connect', connectParams(challenge, { token, scopes: ['operator.admin'] }));
  return { socket, hello };
}
