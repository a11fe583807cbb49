import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeSetupCode } from '../../src-main/protocol/setup-code.js';
import { PairingGate } from '../features/pairing/pairing-gate.js';
import { createPairingStore } from '../features/pairing/pairing-store.js';
import { loadOrCreateDeviceIdentity, memoryKeyStore } from '../gateway/device-identity.js';
import { renderWithStores, startTestApp, type TestApp } from '../testing/render-app.js';
import { App } from './app.js';
import { parseHashRoute } from './hash-route.js';
import { type HashSource, RoutedRoot } from './routed-root.js';

/** The address fragment as a browser keeps it: set fires hashchange, clear does not (history.replaceState). */
function fakeHash(initial: string): HashSource & { value: string; go(next: string): void } {
  const listeners = new Set<() => void>();
  const hash = {
    value: initial,
    read: () => hash.value,
    set: (route: string) => hash.go(route),
    clear: () => {
      hash.value = '';
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    go: (next: string) => {
      hash.value = next;
      for (const listener of [...listeners]) listener();
    },
  };
  return hash;
}

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

describe('hash routes', () => {
  it('reads chat, pairing and quick-ask routes, and says what is wrong with a bad one', () => {
    expect(parseHashRoute('#/sessions/agent%3Awork%3Atelegram%3A42')).toEqual({
      kind: 'session',
      sessionKey: 'agent:work:telegram:42',
    });
    expect(parseHashRoute('#/pair?code=eyJ2IjoxfQ')).toEqual({ kind: 'pair', code: 'eyJ2IjoxfQ' });
    expect(parseHashRoute('#/quick-ask')).toEqual({ kind: 'quick-ask' });
    expect(parseHashRoute('#pair=abc')).toBeUndefined();
    expect(parseHashRoute('')).toBeUndefined();
    expect(parseHashRoute('#/pair')).toEqual({ kind: 'invalid', reason: 'the pairing link has no code' });
    expect(parseHashRoute('#/pair?code=<script>')).toMatchObject({ kind: 'invalid' });
    expect(parseHashRoute('#/sessions/..%2Fetc')).toEqual({ kind: 'invalid', reason: '"../etc" is not a chat name' });
    expect(parseHashRoute('#/sessions/a/b')).toMatchObject({ kind: 'invalid' });
  });

  it('a chat link routed after start opens that chat', async () => {
    app = startTestApp({}, { view: 'settings' });
    const hash = fakeHash('');
    renderWithStores(
      app,
      <RoutedRoot hash={hash} desktop pair={() => {}}>
        <App />
      </RoutedRoot>,
    );
    await act(() => app.client.waitForConnected());
    act(() => hash.go('#/sessions/agent%3Amain%3Awork-notes'));
    expect(app.stores.ui.getState().view).toBe('chat');
    expect(app.stores.sessions.getState().activeKey).toBe('agent:main:work-notes');
    await waitFor(() =>
      expect(app.gateway.calls('chat.history').some((p) => p.sessionKey === 'agent:main:work-notes')).toBe(true),
    );
    expect(hash.value).toBe('');
  });

  it('a pairing link hands its code to the pairing screen; a bad link is refused on screen', async () => {
    app = startTestApp({}, { view: 'settings' });
    const hash = fakeHash('#/sessions/..%2Fetc');
    const paired: string[] = [];
    renderWithStores(
      app,
      <RoutedRoot hash={hash} desktop pair={(code) => paired.push(code)}>
        <App />
      </RoutedRoot>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Cannot open this link: "../etc" is not a chat name',
    );
    act(() => hash.go('#/pair?code=eyJ2IjoxfQ'));
    expect(paired).toEqual(['eyJ2IjoxfQ']);
    expect(hash.value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a pairing link routed while the app runs opens the pairing screen, which asks the gateway in the code', async () => {
    const now = 1_700_000_000_000;
    app = startTestApp({}, { view: 'settings', now: () => now });
    const code = encodeSetupCode({
      version: 1,
      urls: ['wss://192.168.1.20:18791'],
      bootstrapToken: 'bootstrap-token-0123456789',
      tlsFingerprint: 'ab'.repeat(32),
      expiresAt: now + 10 * 60_000,
    });
    const asked: string[] = [];
    const subtle = { digest: globalThis.crypto.subtle.digest.bind(globalThis.crypto.subtle) } as SubtleCrypto;
    const store = createPairingStore({
      identity: () => loadOrCreateDeviceIdentity({ store: memoryKeyStore(), subtle }),
      async attempt(url) {
        asked.push(url);
        return {
          kind: 'refused',
          error: {
            code: 'NOT_PAIRED',
            message: 'pairing required',
            details: { code: 'PAIRING_REQUIRED', requestId: 'r1' },
          },
        };
      },
      socketUrls: (setup) => setup.urls,
      deviceName: 'Hearth desktop',
      platform: 'linux',
      now: () => now,
      sleep: () => new Promise<void>(() => {}),
      onPaired: () => {},
    });
    let startPairing: ((code: string) => void) | undefined;
    const hash = fakeHash('');
    renderWithStores(
      app,
      <RoutedRoot hash={hash} desktop pair={(next) => startPairing?.(next)}>
        <PairingGate
          store={store}
          onPairLink={(start) => {
            startPairing = start;
            return () => {};
          }}
        >
          {() => <App />}
        </PairingGate>
      </RoutedRoot>,
    );
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
    act(() => hash.go(`#/pair?code=${code}`));
    expect(
      await screen.findByRole('heading', { name: 'Waiting for approval on your computer…' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(asked).toEqual(['wss://192.168.1.20:18791']);
    expect(hash.value).toBe('');
  });

  it('quick ask: the question goes into a new chat, which the page then points at', async () => {
    app = startTestApp({
      'sessions.create': () => ({ key: 'agent:main:quick-1' }),
      'chat.send': () => ({ runId: 'r1', status: 'started' }),
    });
    const hash = fakeHash('#/quick-ask');
    renderWithStores(
      app,
      <RoutedRoot hash={hash} desktop pair={() => {}}>
        <App />
      </RoutedRoot>,
    );
    const box = await screen.findByRole('textbox', { name: 'Ask Hearth' });
    await act(() => app.client.waitForConnected());
    fireEvent.change(box, { target: { value: 'What is on my calendar?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(hash.value).toBe('#/sessions/agent%3Amain%3Aquick-1'));
    expect(app.gateway.calls('chat.send')).toEqual([
      expect.objectContaining({ sessionKey: 'agent:main:quick-1', message: 'What is on my calendar?' }),
    ]);
    // In the desktop the window stays the composer: the shell moves the chat to the main window.
    expect(screen.getByRole('textbox', { name: 'Ask Hearth' })).toBeTruthy();
  });

  it('says when the agent is paused (from anywhere) and resumes it from the banner', async () => {
    app = startTestApp({ 'agent.resume': () => ({ paused: false }) }, { view: 'settings' });
    renderWithStores(
      app,
      <RoutedRoot hash={fakeHash('')} desktop pair={() => {}}>
        <App />
      </RoutedRoot>,
    );
    await act(() => app.client.waitForConnected());
    expect(screen.queryByText(/Hearth is paused/)).toBeNull();
    act(() => app.gateway.emit('agent.pause.changed', { paused: true, since: 1 }));
    expect(
      await screen.findByText(/^Hearth is paused: new messages, heartbeats and cron runs are not run/),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume agent' }));
    await waitFor(() => expect(screen.queryByText(/Hearth is paused/)).toBeNull());
    expect(app.gateway.calls('agent.resume')).toEqual([{}]);
  });

  it('shows a pause restored at start with its reason, and a damaged saved pause with its problem', async () => {
    app = startTestApp(
      { 'agent.pause.status': () => ({ paused: true, since: 1, reason: 'on holiday' }) },
      { view: 'settings' },
    );
    renderWithStores(
      app,
      <RoutedRoot hash={fakeHash('')} desktop pair={() => {}}>
        <App />
      </RoutedRoot>,
    );
    await act(() => app.client.waitForConnected());
    const banner = await screen.findByText('· on holiday');
    expect(banner.closest('[role="status"]')?.textContent).toMatch(/^Hearth is paused: .*· on holiday/);
    act(() =>
      app.gateway.emit('agent.pause.changed', {
        paused: true,
        problem: '/home/x/state/agent-pause.json cannot be read (paused: expected boolean)',
      }),
    );
    expect(await screen.findByText(/· \/home\/x\/state\/agent-pause\.json cannot be read/)).toBeTruthy();
    expect(screen.queryByText('· on holiday')).toBeNull();
  });

  it('quick ask shows a refusal where the person asked, and keeps the question', async () => {
    app = startTestApp({
      'sessions.create': () => ({ key: 'agent:main:quick-2' }),
      'chat.send': () => {
        throw Object.assign(new Error('The agent is paused (tray → Resume agent). New messages are not run.'), {
          code: 'UNAVAILABLE',
        });
      },
    });
    const hash = fakeHash('#/quick-ask');
    renderWithStores(
      app,
      <RoutedRoot hash={hash} desktop={false} pair={() => {}}>
        <App />
      </RoutedRoot>,
    );
    const box = await screen.findByRole('textbox', { name: 'Ask Hearth' });
    await act(() => app.client.waitForConnected());
    fireEvent.change(box, { target: { value: 'Hello?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The agent is paused');
    expect((box as HTMLTextAreaElement).value).toBe('Hello?');
    expect(hash.value).toBe('#/quick-ask');
  });
});
