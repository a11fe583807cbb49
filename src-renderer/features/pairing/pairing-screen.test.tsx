import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src-main/protocol/client/gateway-client.js';
import { createLoopbackPair } from '../../../src-main/protocol/client/loopback-transport.js';
import { encodeSetupCode } from '../../../src-main/protocol/setup-code.js';
import { StoresProvider } from '../../app/stores-context.js';
import { loadOrCreateDeviceIdentity, memoryKeyStore } from '../../gateway/device-identity.js';
import { createDeviceCredentials } from '../../gateway/device-identity-credentials.js';
import { createStores } from '../../stores/create-stores.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { testHello } from '../../testing/scripted-gateway.js';
import { DevicesView } from '../devices/devices-view.js';
import { attemptHandshake } from './pairing-attempt.js';
import { PairingGate } from './pairing-gate.js';
import { createPairingStore } from './pairing-store.js';

const NOW = 1_700_000_000_000;
const subtle = { digest: globalThis.crypto.subtle.digest.bind(globalThis.crypto.subtle) } as SubtleCrypto;
let app: TestApp | undefined;
afterEach(() => {
  cleanup();
  app?.dispose();
  app = undefined;
});

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

const code = encodeSetupCode({
  version: 1,
  urls: ['wss://192.168.1.20:18791'],
  bootstrapToken: 'bootstrap-token-0123456789',
  tlsFingerprint: 'ab'.repeat(32),
  expiresAt: NOW + 10 * 60_000,
});

describe('PairingGate on the phone', () => {
  it('shows the waiting screen with the device name and short id, then the app once approved', async () => {
    app = startTestApp({}, { now: () => NOW });
    let approve: (() => void) | undefined;
    const paired: string[] = [];
    const store = createPairingStore({
      identity: () => loadOrCreateDeviceIdentity({ store: memoryKeyStore(), subtle }),
      async attempt() {
        if (approve === undefined) {
          return {
            kind: 'refused',
            error: {
              code: 'NOT_PAIRED',
              message: 'pairing required',
              details: { code: 'PAIRING_REQUIRED', requestId: 'r1' },
            },
          };
        }
        const hello = testHello();
        hello.auth = { ...hello.auth, deviceToken: 'device-token-1' };
        return { kind: 'hello', hello };
      },
      socketUrls: () => ['wss://page/'],
      deviceName: 'iPhone',
      platform: 'iPhone',
      now: () => NOW,
      sleep: () => new Promise<void>((resolve) => (approve = resolve)),
      onPaired: (token) => paired.push(token),
    });
    renderWithStores(
      app,
      <PairingGate store={store} initialCode={code}>
        {() => <p>the app</p>}
      </PairingGate>,
    );
    expect(
      await screen.findByRole('heading', { name: 'Waiting for approval on your computer…' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByTestId('pairing-device-name').textContent).toBe('iPhone');
    expect(screen.getByTestId('pairing-device-id').textContent).toMatch(/^[0-9a-f]{4}…[0-9a-f]{4}$/);
    expect(screen.getByText('Code expires in 10:00')).toBeTruthy();
    await act(async () => approve?.());
    expect(await screen.findByText('the app', {}, { timeout: 5000 })).toBeTruthy();
    expect(paired).toEqual(['device-token-1']);
  });

  it('a pasted code that is not a code says what is wrong', async () => {
    app = startTestApp();
    const store = createPairingStore({
      identity: () => Promise.reject(new Error('unused')),
      attempt: () => Promise.reject(new Error('unused')),
      socketUrls: () => [],
      deviceName: 'iPhone',
      platform: 'iPhone',
      now: () => NOW,
      sleep: async () => {},
      onPaired: () => {},
    });
    renderWithStores(
      app,
      <PairingGate store={store}>
        {(openPairing) => (
          <button type="button" onClick={openPairing}>
            pair
          </button>
        )}
      </PairingGate>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'pair' }));
    fireEvent.change(screen.getByLabelText('Pairing code or link'), { target: { value: 'hearth://pair?x=1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pair' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(within(alert).getByRole('heading').textContent).toBe('This is not a Hearth pairing code');
    expect(alert.textContent).toContain('The pairing link has no code.');
  });

  it('a device token the desktop no longer accepts: "this device was removed; scan a new code", key kept', async () => {
    const storage = memoryStorage();
    const keys = memoryKeyStore();
    const device = createDeviceCredentials({
      storage,
      loadIdentity: () => loadOrCreateDeviceIdentity({ store: keys, subtle }),
    });
    device.saveToken('revoked-token');
    const client = new GatewayClient({
      transport: () =>
        createLoopbackPair({
          onOpen: (peer) => {
            peer.onFrame((frame) =>
              peer.send({
                type: 'res',
                id: frame.id,
                ok: false,
                error: {
                  code: 'INVALID_REQUEST',
                  message: 'unauthorized: device token mismatch',
                  details: { code: 'AUTH_DEVICE_TOKEN_MISMATCH' },
                },
              }),
            );
            peer.send({
              type: 'event',
              event: 'connect.challenge',
              payload: { nonce: 'n', ts: NOW, capabilities: [] },
            });
          },
        }).transport,
      connectParams: (challenge) => device.connectParams(challenge, { platform: 'iPhone' }),
    });
    const stores = createStores(client, { language: 'en', now: () => NOW });
    const pairing = createPairingStore({
      identity: () => device.identity(),
      attempt: () => Promise.reject(new Error('unused')),
      socketUrls: () => [],
      deviceName: 'iPhone',
      platform: 'iPhone',
      now: () => NOW,
      sleep: async () => {},
      onPaired: () => {},
    });
    client.start();
    render(
      <StoresProvider stores={stores}>
        <PairingGate store={pairing} device={device}>
          {() => <p>the app</p>}
        </PairingGate>
      </StoresProvider>,
    );
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toContain('This device was removed');
    expect(alert.textContent).toMatch(/scan a new code/i);
    expect(device.token()).toBeUndefined();
    expect(keys.current).toBeDefined();
    stores.dispose();
    client.dispose();
  });
});

describe('attemptHandshake', () => {
  it('keeps the refusal details (the pairing request id) and closes the socket', async () => {
    const { transport, peer } = createLoopbackPair({
      onOpen: (p) => {
        p.onFrame((frame) =>
          p.send({
            type: 'res',
            id: frame.id,
            ok: false,
            error: {
              code: 'NOT_PAIRED',
              message: 'pairing required',
              details: { code: 'PAIRING_REQUIRED', requestId: 'r9' },
            },
          }),
        );
        p.send({ type: 'event', event: 'connect.challenge', payload: { nonce: 'n', ts: 1, capabilities: [] } });
      },
    });
    const outcome = await attemptHandshake(transport, async () => ({
      minProtocol: 4,
      maxProtocol: 4,
      client: { id: 'hearth-control-ui', mode: 'ui', version: 't', platform: 'p' },
    }));
    expect(outcome).toMatchObject({ kind: 'refused', error: { details: { requestId: 'r9' } } });
    expect(peer.isOpen).toBe(false);
  });
});

describe('Devices view: pairing a phone from the desktop', () => {
  it('makes a setup code and shows its QR as an image, the link, the pin and a countdown', async () => {
    app = startTestApp(
      {
        'device.pair.setup': () => ({
          code,
          link: `hearth://pair?code=${code}`,
          webUrl: `https://192.168.1.20:18791/#pair=${code}`,
          urls: ['wss://192.168.1.20:18791'],
          tlsFingerprint: 'ab'.repeat(32),
          expiresAt: NOW + 10 * 60_000,
          qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          qrText: '',
        }),
      },
      { now: () => NOW },
    );
    renderWithStores(app, <DevicesView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pair a phone' }, { timeout: 5000 }));
    const qr = (await screen.findByRole('img', { name: /Pairing QR code/ })) as HTMLImageElement;
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    // Never inlined into the page.
    expect(document.querySelector('script')).toBeNull();
    expect(screen.getByTestId('setup-link').textContent).toBe(`https://192.168.1.20:18791/#pair=${code}`);
    expect(screen.getByTestId('setup-pin').textContent).toBe(`sha256:${Array(32).fill('AB').join(':')}`);
    expect(screen.getByTestId('setup-countdown').textContent).toBe('10:00');
  });

  it('lists a pending request live with name, platform, IP, scopes and "known device, new token?", and approves it', async () => {
    let pending: unknown[] = [];
    app = startTestApp({
      'device.pair.list': () => ({ pending, paired: [] }),
      'device.pair.approve': () => {
        pending = [];
        return { requestId: 'r1', device: {} };
      },
    });
    renderWithStores(app, <DevicesView />);
    await act(() => app!.client.waitForConnected());
    pending = [
      {
        requestId: 'r1',
        deviceId: 'a1b2c3d4e5f6a7b8',
        displayName: 'iPhone',
        platform: 'iPhone',
        remoteAddress: '192.168.1.33',
        role: 'operator',
        scopes: ['operator.read', 'operator.approvals'],
        isRepair: true,
      },
    ];
    act(() => app!.gateway.emit('device.pair.requested', { requestId: 'r1' }));
    const card = await screen.findByTestId('pair-request', {}, { timeout: 5000 });
    for (const text of ['iPhone', '192.168.1.33', 'operator.approvals', 'Known device, new token?', 'a1b2…a7b8']) {
      expect(card.textContent).toContain(text);
    }
    fireEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(app!.gateway.calls('device.pair.approve')).toEqual([{ requestId: 'r1' }]));
    await waitFor(() => expect(screen.queryByTestId('pair-request')).toBeNull());
  });
});
