import { describe, expect, it } from 'vitest';
import type { ConnectChallenge, ConnectParams } from '../../../src-main/protocol/connect.js';
import { encodeSetupCode } from '../../../src-main/protocol/setup-code.js';
import { loadOrCreateDeviceIdentity, memoryKeyStore } from '../../gateway/device-identity.js';
import { testHello } from '../../testing/scripted-gateway.js';
import { readPairInput, shortDeviceId, takePairCode } from './pair-code.js';
import type { AttemptOutcome } from './pairing-attempt.js';
import { createPairingStore } from './pairing-store.js';

const T0 = 1_700_000_000_000;
const FINGERPRINT = 'ab'.repeat(32);

function setupCode(overrides: { expiresAt?: number; bootstrapToken?: string } = {}) {
  return encodeSetupCode({
    version: 1,
    urls: ['wss://192.168.1.20:18791'],
    bootstrapToken: overrides.bootstrapToken ?? 'bootstrap-token-0123456789',
    tlsFingerprint: FINGERPRINT,
    expiresAt: overrides.expiresAt ?? T0 + 10 * 60_000,
  });
}

const pairingRequired = (requestId: string): AttemptOutcome => ({
  kind: 'refused',
  error: {
    code: 'NOT_PAIRED',
    message: 'pairing required: device is not approved yet',
    details: { code: 'PAIRING_REQUIRED', requestId },
  },
});

/** A pairing store against scripted gateway answers, on a clock that only moves when it sleeps. */
function harness(answers: AttemptOutcome[]) {
  const keys = memoryKeyStore();
  let now = T0;
  const sent: { url: string; params: ConnectParams }[] = [];
  const paired: string[] = [];
  const store = createPairingStore({
    identity: () =>
      loadOrCreateDeviceIdentity({
        store: keys,
        // jsdom may lack WebCrypto Ed25519: take the @noble/curves path, as such browsers do.
        subtle: { digest: globalThis.crypto.subtle.digest.bind(globalThis.crypto.subtle) } as SubtleCrypto,
      }),
    async attempt(url, params) {
      const challenge: ConnectChallenge = { nonce: `n${sent.length}`, ts: now, capabilities: [] };
      sent.push({ url, params: await params(challenge) });
      return answers.shift() ?? pairingRequired('r-last');
    },
    socketUrls: (code) => ['wss://page-origin/', ...code.urls],
    deviceName: 'Android phone',
    platform: 'Linux armv8l',
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    onPaired: (token) => paired.push(token),
  });
  return { store, sent, paired, keys, advance: (ms: number) => (now += ms) };
}

describe('pairing store', () => {
  it('waits for approval with the bootstrap token and a device proof, then hands over the device token', async () => {
    const hello = testHello();
    hello.auth = { ...hello.auth, method: 'bootstrap-token', deviceToken: 'device-token-xyz' };
    const h = harness([pairingRequired('r1'), pairingRequired('r1'), { kind: 'hello', hello }]);
    const phases: string[] = [];
    h.store.subscribe((s) => phases.push(s.phase));
    await h.store.getState().start(setupCode());
    expect(h.paired).toEqual(['device-token-xyz']);
    expect(h.store.getState()).toMatchObject({ phase: 'paired', deviceName: 'Android phone' });
    expect(phases).toContain('waiting');
    expect(h.sent).toHaveLength(3);
    const first = h.sent[0]!;
    expect(first.url).toBe('wss://page-origin/');
    expect(first.params).toMatchObject({
      client: { id: 'hearth-control-ui', mode: 'ui', displayName: 'Android phone' },
      scopes: ['operator.read', 'operator.write', 'operator.approvals'],
      auth: { bootstrapToken: 'bootstrap-token-0123456789' },
    });
    expect(first.params.device?.id).toBe(h.store.getState().deviceId);
    expect(h.store.getState().shortId).toBe(shortDeviceId(first.params.device!.id));
  });

  it('keeps the same key when pairing again (the desktop shows a known device)', async () => {
    const h = harness([{ kind: 'refused', error: { code: 'X', message: 'x', details: { code: 'OTHER' } } }]);
    await h.store.getState().start(setupCode());
    const firstId = h.sent[0]!.params.device!.id;
    await h.store.getState().start(setupCode({ bootstrapToken: 'another-bootstrap-token-000' }));
    expect(h.sent.at(-1)!.params.device!.id).toBe(firstId);
  });

  it('says the code was already used when the gateway refuses the bootstrap token', async () => {
    const h = harness([
      {
        kind: 'refused',
        error: {
          code: 'INVALID_REQUEST',
          message: 'setup code is invalid, expired or already used',
          details: { code: 'AUTH_BOOTSTRAP_TOKEN_INVALID' },
        },
      },
    ]);
    await h.store.getState().start(setupCode());
    expect(h.store.getState()).toMatchObject({ phase: 'failed', problem: { kind: 'already-used' } });
    expect(h.store.getState().problem?.message).toMatch(/Pair a phone/);
  });

  it('says it was declined when the pending request disappears before it could expire', async () => {
    const h = harness([pairingRequired('r1'), pairingRequired('r2')]);
    await h.store.getState().start(setupCode());
    expect(h.store.getState().problem).toMatchObject({
      kind: 'rejected',
      title: 'Pairing was declined on your computer',
    });
  });

  it('refuses an expired code before connecting, and a damaged one with the reason', async () => {
    const h = harness([]);
    await h.store.getState().start(setupCode({ expiresAt: T0 - 1 }));
    expect(h.store.getState().problem?.kind).toBe('expired');
    await h.store.getState().start('not a code!');
    expect(h.store.getState().problem).toMatchObject({ kind: 'invalid-code' });
    expect(h.store.getState().problem?.message).toMatch(/not valid/);
    expect(h.sent).toHaveLength(0);
  });

  it('times out when nobody approves before the code expires', async () => {
    const h = harness([]);
    await h.store.getState().start(setupCode({ expiresAt: T0 + 7_000 }));
    expect(h.store.getState().problem?.kind).toBe('timed-out');
  });

  it('keeps trying while the gateway is unreachable, trying every address, and says so', async () => {
    const unreachable: AttemptOutcome = { kind: 'unreachable', reason: 'cannot connect' };
    const h = harness([unreachable, unreachable, pairingRequired('r1'), { kind: 'unreachable', reason: 'x' }]);
    const notices: (string | undefined)[] = [];
    h.store.subscribe((s) => notices.push(s.notice));
    const run = h.store.getState().start(setupCode({ expiresAt: T0 + 5_000 }));
    await run;
    expect(h.sent.map((s) => s.url).slice(0, 3)).toEqual([
      'wss://page-origin/',
      'wss://192.168.1.20:18791',
      'wss://page-origin/',
    ]);
    expect(notices.some((n) => n?.includes("Can't reach your computer"))).toBe(true);
  });

  it('stops when cancelled', async () => {
    const h = harness([]);
    const run = h.store.getState().start(setupCode());
    h.store.getState().cancel();
    await run;
    expect(h.store.getState().phase).toBe('idle');
  });
});

describe('pair codes', () => {
  it('takes #pair= from the address bar and clears it', () => {
    let cleared = false;
    expect(takePairCode({ hash: '#pair=abc', clearHash: () => (cleared = true) })).toBe('abc');
    expect(cleared).toBe(true);
    expect(takePairCode({ hash: '#token=t', clearHash: () => {} })).toBeUndefined();
  });

  it('reads the bare code, the hearth:// link and the https link alike', () => {
    const code = setupCode();
    for (const input of [code, `hearth://pair?code=${code}`, `https://192.168.1.20:18791/#pair=${code}`]) {
      expect(readPairInput(input).bootstrapToken).toBe('bootstrap-token-0123456789');
    }
  });
});
