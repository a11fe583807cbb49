import { readFile, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import { createCliContext } from '../cli/cli-context.js';
import { runCli } from '../cli/run-cli.js';
import { createHearthPaths } from '../paths/index.js';
import { decodeSetupCode, encodeSetupCode, type ServerFrame } from '../protocol/index.js';
import { openSecretStore, type SecretStore } from '../secrets/index.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { DEVICE_KEY_ACCOUNT, deviceTokenAccount, RemoteGatewayIdentity } from './remote-gateway-identity.js';
import { GATEWAYS_CHANNEL, serveGatewaysIpc } from './remote-gateway-ipc.js';
import { type PairingProgress, pairDesktop, RemotePairingError } from './remote-gateway-pairing.js';
import { createRemoteRelay, PIN_MISMATCH_CODE } from './remote-gateway-relay.js';
import { CertificatePinError, openPinnedSocket } from './remote-gateway-socket.js';
import { createGatewaySwitch, type GatewaysView, LOCAL_GATEWAY } from './remote-gateway-switch.js';

// A real Hearth gateway with its remote-facing listener (TLS, self-signed) on loopback, and
// this desktop's identity in a real (encrypted-file) secret store in a temp home of its own.
let other: TestHost;
let desktopHome: { home: string; cleanup(): Promise<void> };
let secrets: SecretStore;
let identity: RemoteGatewayIdentity;

beforeEach(async () => {
  other = await startTestHost({ lanBind: '127.0.0.1' });
  desktopHome = await createTempHome();
  const paths = createHearthPaths(desktopHome.home);
  secrets = (await openSecretStore({ paths, log: silentLogger, env: { HEARTH_SECRET_STORE: 'file' } })).store;
  identity = new RemoteGatewayIdentity(secrets, paths.identityDir);
});
afterEach(async () => {
  await other.close();
  await desktopHome.cleanup();
});

async function otherCli(args: string[]): Promise<string> {
  let stdout = '';
  const context = createCliContext({
    env: { HEARTH_HOME: other.paths.home, HEARTH_PORT: String(other.port) },
    clock: systemClock,
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    readStdin: async () => '',
  });
  expect(await runCli(args, context)).toBe(0);
  return stdout;
}

/** What a person at the other machine does: `hearth pair qr`, then approve the request when it shows. */
async function setupLink(): Promise<string> {
  return (JSON.parse(await otherCli(['pair', 'qr', '--json'])) as { link: string }).link;
}

function pairingDeps(progress: PairingProgress[] = []) {
  return {
    identity,
    version: 'test',
    platform: 'linux',
    displayName: 'Test desktop',
    now: () => Date.now(),
    // Each poll waits on the gateway's own answer; the pause between polls is not what is tested.
    sleep: () => new Promise<void>((resolve) => setImmediate(resolve)),
    onProgress: (step: PairingProgress) => progress.push(step),
    cancelled: () => false,
  };
}

async function approveWhenWaiting(progress: PairingProgress[]): Promise<void> {
  for (;;) {
    const waiting = progress.find((step) => step.phase === 'waiting');
    if (waiting?.requestId) {
      await otherCli(['devices', 'approve', waiting.requestId]);
      return;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** One window connection through the relay, answered like the Control UI answers (connect, then requests). */
function windowThrough(relay: ReturnType<typeof createRemoteRelay>) {
  const connection = relay.connectInProcess();
  const frames: ServerFrame[] = [];
  const waiters: { test: (frame: ServerFrame) => boolean; resolve: (frame: ServerFrame) => void }[] = [];
  const sub = connection.onFrame((frame) => {
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.test(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  const next = (test: (frame: ServerFrame) => boolean) =>
    new Promise<ServerFrame>((resolve) => {
      const seen = frames.find(test);
      if (seen) resolve(seen);
      else waiters.push({ test, resolve });
    });
  const request = async (id: string, method: string, params: unknown) => {
    connection.send({ type: 'req', id, method, params });
    return next((frame) => frame.type === 'res' && frame.id === id);
  };
  return {
    connection,
    next,
    request,
    dispose() {
      sub.dispose();
      connection.dispose();
    },
  };
}

const uiConnect = {
  minProtocol: 4,
  maxProtocol: 4,
  client: { id: 'hearth-control-ui', mode: 'ui', version: 't', platform: 'linux' },
  role: 'operator',
  scopes: ['operator.admin'],
};

describe('desktop remote-gateway mode against a real TLS gateway', () => {
  it('pairs from the hearth:// link, keeps the token only in the secret store, and the window talks to that gateway', async () => {
    const link = await setupLink();
    const progress: PairingProgress[] = [];
    const [record] = await Promise.all([pairDesktop(link, pairingDeps(progress)), approveWhenWaiting(progress)]);

    expect(record.urls[0]).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
    expect(record.tlsFingerprint).toBe(decodeSetupCode(link).tlsFingerprint);
    expect(record.scopes).toEqual(['operator.read', 'operator.write', 'operator.approvals']);
    expect(progress[0]).toMatchObject({ phase: 'connecting' });
    const token = await secrets.get(deviceTokenAccount(record.id));
    expect(token).toMatch(/.{20,}/);
    expect(await secrets.get(DEVICE_KEY_ACCOUNT)).toContain('PRIVATE KEY');
    // The plain file names the gateway and its pin, never the token or the key.
    const file = await readFile(identity.file, 'utf8');
    expect(file).toContain(record.tlsFingerprint);
    expect(file).not.toContain(token!);
    expect(file).not.toContain('PRIVATE KEY');

    const relay = createRemoteRelay({
      gateway: record,
      identity,
      version: 't',
      platform: 'linux',
      logger: silentLogger,
    });
    const window = windowThrough(relay);
    await window.next((frame) => frame.type === 'event' && frame.event === 'connect.challenge');
    const hello = await window.request('c1', 'connect', uiConnect);
    // The window asked for admin with no credentials; the relay connected as the paired device with its grant.
    expect(hello).toMatchObject({
      ok: true,
      payload: { auth: { method: 'device-token', scopes: ['operator.read', 'operator.write', 'operator.approvals'] } },
    });
    // The page never sees the desktop's device token.
    expect(JSON.stringify(hello)).not.toContain(token!);
    expect(await window.request('h1', 'health', {})).toMatchObject({ ok: true });
    // The other machine lists this desktop as an online, paired device.
    const devices = JSON.parse(await otherCli(['devices', 'list', '--json'])) as {
      paired: { displayName?: string; online: boolean }[];
    };
    expect(devices.paired.find((device) => device.online)?.displayName).toBe('Test desktop');
    window.dispose();
    expect(await window.connection.closed).toMatchObject({ code: 1000 });
  });

  it('refuses a gateway whose certificate is not the pinned one, saying so to the window, and never re-pins', async () => {
    const link = await setupLink();
    const progress: PairingProgress[] = [];
    const [record] = await Promise.all([pairDesktop(link, pairingDeps(progress)), approveWhenWaiting(progress)]);
    // The other machine comes back with a new certificate (as an impostor on the same address would).
    const home = other.paths.home;
    await other.dispose();
    await rm(`${other.paths.identityDir}/tls-cert.pem`);
    await rm(`${other.paths.identityDir}/tls-key.pem`);
    other = await startTestHost({ home, lanBind: '127.0.0.1' });
    const lan = await other.ensureLan();
    const moved = { ...record, urls: [lan.urls[0]!] };

    await expect(openPinnedSocket(moved.urls[0]!, { pin: record.tlsFingerprint })).rejects.toBeInstanceOf(
      CertificatePinError,
    );
    const window = windowThrough(
      createRemoteRelay({ gateway: moved, identity, version: 't', platform: 'linux', logger: silentLogger }),
    );
    await window.next((frame) => frame.type === 'event' && frame.event === 'connect.challenge');
    const refused = await window.request('c1', 'connect', uiConnect);
    expect(refused).toMatchObject({ ok: false, error: { details: { code: PIN_MISMATCH_CODE } } });
    const message = refused.type === 'res' ? (refused.error?.message ?? '') : '';
    expect(message).toMatch(/showed a different TLS certificate than the one pinned/);
    expect(message).toMatch(/pinned sha256:[0-9a-f]{64}, got sha256:[0-9a-f]{64}/);
    expect(await window.connection.closed).toMatchObject({ code: 1000 });
    window.dispose();
    expect((await identity.read()).gateways[0]?.tlsFingerprint).toBe(record.tlsFingerprint);
  });

  it('refuses to pair when the code pins another certificate than the gateway shows', async () => {
    const setup = decodeSetupCode(await setupLink());
    const forged = encodeSetupCode({ ...setup, tlsFingerprint: 'ab'.repeat(32) });
    await expect(pairDesktop(forged, pairingDeps())).rejects.toMatchObject({
      kind: 'certificate',
      message: expect.stringMatching(/pinned sha256:abab.*Hearth did not connect/),
    });
    expect(await secrets.list()).not.toContain(deviceTokenAccount('abababababababab'));
  });

  it('names a used code and an expired one', async () => {
    const link = await setupLink();
    const progress: PairingProgress[] = [];
    await Promise.all([pairDesktop(link, pairingDeps(progress)), approveWhenWaiting(progress)]);
    await expect(pairDesktop(link, pairingDeps())).rejects.toMatchObject({ kind: 'already-used' });
    const expired = encodeSetupCode({ ...decodeSetupCode(link), expiresAt: Date.now() - 1 });
    const error = await pairDesktop(expired, pairingDeps()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemotePairingError);
    expect(error).toMatchObject({ kind: 'expired', message: expect.stringMatching(/expired/) });
  });
});

describe('the gateway switch and its IPC channel', () => {
  it('pairs through the switch, uses the paired gateway, switches back to this computer and forgets it', async () => {
    const local = { connectInProcess: () => other.gateway.connectInProcess({ displayName: 'local window' }) };
    let reloads = 0;
    const switcher = createGatewaySwitch({
      ...pairingDeps(),
      local,
      reloadWindows: () => {
        reloads += 1;
      },
      logger: silentLogger,
    });
    await switcher.load();
    expect(switcher.view).toEqual({ active: LOCAL_GATEWAY, gateways: [] });
    const views: GatewaysView[] = [];
    const watch = switcher.onDidChange((view) => views.push(view));
    const progress: PairingProgress[] = [];
    const waiting = new Promise<void>((resolve) => {
      const sub = switcher.onDidChange((view) => {
        if (view.pairing?.phase === 'waiting' && view.pairing.requestId) {
          progress.push({ phase: 'waiting', deviceId: '', expiresAt: 0, requestId: view.pairing.requestId });
          sub.dispose();
          resolve();
        }
      });
    });
    const paired = switcher.pair(await setupLink());
    await waiting;
    await approveWhenWaiting(progress);
    await paired;
    const [gateway] = switcher.view.gateways;
    expect(switcher.view.active).toBe(gateway!.id);
    expect(switcher.view.pairing).toBeUndefined();
    expect(reloads).toBe(1);
    expect(JSON.stringify(views)).not.toContain((await identity.token(gateway!.id))!);

    // A window now goes to the paired gateway through the pinned relay, not to this computer's.
    const through = switcher.gateway.connectInProcess();
    expect(through.connId).toMatch(/^remote-/);
    through.dispose();

    // IPC: only our own top-level document is heard; bad commands are named.
    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
    const sent: unknown[] = [];
    const ipc = serveGatewaysIpc({
      ipcMain: {
        handle: (channel, listener) => handlers.set(channel, listener as never),
        removeHandler: (channel) => handlers.delete(channel),
      },
      switcher,
      appOrigin: 'app://hearth',
      receivers: () => [{ send: (_channel, view) => sent.push(view), isDestroyed: () => false }],
      logger: silentLogger,
    });
    const invoke = (url: string, command: unknown, parent: unknown = null) =>
      handlers.get(GATEWAYS_CHANNEL)!(
        { sender: { id: 1 }, senderFrame: { url, parent } },
        command,
      ) as Promise<GatewaysView>;
    await expect(invoke('https://evil.example/', { kind: 'view' })).rejects.toThrow('not allowed');
    await expect(invoke('app://hearth/index.html', { kind: 'view' }, {})).rejects.toThrow('not allowed');
    await expect(invoke('app://hearth/index.html', { kind: 'use', id: '../x' })).rejects.toThrow(/use needs "id"/);
    await expect(invoke('app://hearth/index.html', { kind: 'jump' })).rejects.toThrow(
      /unknown gateways command "jump"/,
    );

    expect(await invoke('app://hearth/index.html', { kind: 'use', id: LOCAL_GATEWAY })).toMatchObject({
      active: LOCAL_GATEWAY,
    });
    expect(reloads).toBe(2);
    expect((await identity.read()).active).toBe(LOCAL_GATEWAY);
    expect(await invoke('app://hearth/index.html', { kind: 'forget', id: gateway!.id })).toEqual({
      active: LOCAL_GATEWAY,
      gateways: [],
    });
    expect(await identity.token(gateway!.id)).toBeUndefined();
    expect(sent.length).toBeGreaterThan(0);
    ipc.dispose();
    watch.dispose();
    switcher.dispose();
  });
});
