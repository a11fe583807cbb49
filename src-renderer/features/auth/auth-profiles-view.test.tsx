import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { AuthProfilesView } from './auth-profiles-view.js';

// The health view's probe states: a key is Ready only once it has worked; the newest probe's
// refusal or unreachable server is shown with its time and message; Check now forces a probe.
const NOW = 1_700_000_000_000;
let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const row = (extra: Record<string, unknown>) => ({
  type: 'api_key',
  fromConfig: false,
  cooldownRemainingMs: 0,
  failureCounts: {},
  status: 'ok',
  verified: false,
  ...extra,
});

describe('auth profile probes', () => {
  it('never shows an unproven key as ready, and shows what the last probe found', async () => {
    const probes: unknown[] = [];
    const profiles = [
      row({ id: 'fresh', provider: 'openai', label: 'Fresh' }),
      row({
        id: 'bad',
        provider: 'openai',
        label: 'Bad',
        lastProbe: {
          at: NOW - 60_000,
          ok: false,
          problem: 'auth',
          status: 401,
          message: 'api.openai.com refused the key (HTTP 401): Incorrect API key provided.',
        },
      }),
      row({
        id: 'gone',
        provider: 'lmstudio',
        label: 'Gone',
        lastProbe: { at: NOW - 60_000, ok: false, problem: 'down', message: 'nothing is listening at 127.0.0.1:1234' },
      }),
      row({
        id: 'good',
        provider: 'openai',
        label: 'Good',
        verified: true,
        lastProbe: { at: NOW, ok: true, models: 12 },
      }),
    ];
    app = startTestApp(
      {
        'auth.profiles.list': () => ({ secretBackend: 'keychain', profiles }),
        'auth.profiles.probe': (params) => {
          probes.push(params);
          return { profiles: [] };
        },
      },
      { now: () => NOW },
    );
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    await waitFor(() =>
      expect(screen.getAllByTestId('auth-profile').map((r) => r.dataset.status)).toEqual([
        'unverified',
        'rejected',
        'down',
        'ready',
      ]),
    );
    const rows = screen.getAllByTestId('auth-profile');
    expect(within(rows[0]!).getByText('Not checked yet')).toBeTruthy();
    expect(within(rows[1]!).getByText('Key refused')).toBeTruthy();
    expect(within(rows[1]!).getByTestId('auth-probe').textContent).toContain('Incorrect API key provided.');
    expect(within(rows[2]!).getByText('Unreachable')).toBeTruthy();
    expect(within(rows[3]!).getByTestId('auth-probe').textContent).toContain('works, 12 models listed');
    // Opening the view probes within the server's cooldown (no force); Check now forces one key.
    await waitFor(() => expect(probes[0]).toEqual({}));
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Check now' }));
    await waitFor(() => expect(probes).toContainEqual({ id: 'bad', force: true }));
  });
});
