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

// Adding or replacing a credential asks for what the provider's kind needs, checks it naming the
// field before anything is sent, and sends what the gateway keeps: Bedrock's key pair as one JSON
// secret (as providers.save stores it) with its region in hearth.json, Azure's key with its resource.
describe('credentials that are more than a key', () => {
  const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
  const add = () => fireEvent.click(screen.getByRole('button', { name: 'Add' }));
  const sent = () =>
    app.gateway.requests.map((r) => r.method).filter((m) => m === 'config.patch' || m.endsWith('.set'));

  it('asks Bedrock for its region and key pair, refuses a missing secret and a bad region by name', async () => {
    app = startTestApp({ 'auth.profiles.set': () => ({ profile: {} }), 'config.patch': () => ({ ok: true }) });
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'bedrock' } });
    expect(screen.queryByLabelText('API key')).toBeNull();
    expect(screen.getByLabelText('Session token (temporary keys only)')).toBeTruthy();

    type('AWS region', 'eu-west-1');
    type('Access key ID', 'AKIAIOSFODNN7EXAMPLE');
    add();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Secret access key: enter the secret that goes with the access key ID.',
    );
    expect(screen.getByLabelText('Secret access key').getAttribute('aria-invalid')).toBe('true');

    type('Secret access key', ' wJalrXUtnFEMI/K7MDENG ');
    type('AWS region', 'Ireland');
    expect(screen.queryByRole('alert')).toBeNull();
    add();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'AWS region: “Ireland” is not an AWS region like us-east-1.',
    );
    expect(screen.getByLabelText('AWS region').getAttribute('aria-invalid')).toBe('true');
    expect(sent()).toEqual([]);

    type('AWS region', 'eu-west-1');
    add();
    await waitFor(() => expect(sent()).toEqual(['config.patch', 'auth.profiles.set']));
    expect(app.gateway.calls('config.patch')).toEqual([
      { patch: { providers: { bedrock: { kind: 'bedrock', region: 'eu-west-1', baseURL: null } } } },
    ]);
    expect(app.gateway.calls('auth.profiles.set')).toEqual([
      {
        id: 'bedrock:default',
        provider: 'bedrock',
        type: 'api_key',
        secret: '{"accessKeyId":"AKIAIOSFODNN7EXAMPLE","secretAccessKey":"wJalrXUtnFEMI/K7MDENG"}',
      },
    ]);
    await waitFor(() => expect((screen.getByLabelText('Secret access key') as HTMLInputElement).value).toBe(''));
  });

  it('replaces a Bedrock profile in place, starting from the region hearth.json has', async () => {
    const config = { providers: { bedrock: { kind: 'bedrock', region: 'us-west-2' } } };
    app = startTestApp({
      'config.get': () => ({
        path: '/h/hearth.json',
        exists: true,
        raw: '{}',
        parsed: config,
        hash: 'h1',
        valid: true,
      }),
      'auth.profiles.list': () => ({
        secretBackend: 'keychain',
        profiles: [row({ id: 'bedrock:default', provider: 'bedrock', label: 'bedrock:default' })],
      }),
      'auth.profiles.set': () => ({ profile: {} }),
      'config.patch': () => ({ ok: true }),
    });
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(await screen.findByRole('button', { name: 'Replace key' }));
    expect(screen.getByRole('heading', { name: 'Replace the key of bedrock:default' })).toBeTruthy();
    expect((screen.getByLabelText('Provider') as HTMLSelectElement).disabled).toBe(true);
    await waitFor(() => expect((screen.getByLabelText('AWS region') as HTMLInputElement).value).toBe('us-west-2'));
    type('Access key ID', 'ASIAIOSFODNN7EXAMPLE');
    type('Secret access key', 'secret2');
    const form = screen.getByRole('form', { name: 'Replace the key of bedrock:default' });
    fireEvent.click(within(form).getByRole('button', { name: 'Replace key' }));
    // A temporary key is refused without its token, naming the field.
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Session token: an ASIA… key is temporary and needs its session token.',
    );
    type('Session token (temporary keys only)', 'tok');
    fireEvent.click(within(form).getByRole('button', { name: 'Replace key' }));
    await waitFor(() => expect(sent()).toEqual(['config.patch', 'auth.profiles.set']));
    expect(app.gateway.calls('config.patch')).toEqual([
      { patch: { providers: { bedrock: { kind: 'bedrock', region: 'us-west-2', baseURL: null } } } },
    ]);
    // The same id, not one made from the shown name; no name is invented for it.
    expect(app.gateway.calls('auth.profiles.set')).toEqual([
      {
        id: 'bedrock:default',
        provider: 'bedrock',
        type: 'api_key',
        secret: '{"accessKeyId":"ASIAIOSFODNN7EXAMPLE","secretAccessKey":"secret2","sessionToken":"tok"}',
      },
    ]);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Add a profile' })).toBeTruthy());
  });

  it('asks Azure for its resource or base URL, api-version and key, as a configured provider of that kind', async () => {
    const config = { providers: { work: { kind: 'azure', resourceName: 'contoso', apiVersion: '2024-10-21' } } };
    app = startTestApp({
      'config.get': () => ({
        path: '/h/hearth.json',
        exists: true,
        raw: '{}',
        parsed: config,
        hash: 'h1',
        valid: true,
      }),
      'auth.profiles.set': () => ({ profile: {} }),
      'config.patch': () => ({ ok: true }),
    });
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    await waitFor(() => expect(screen.getByRole('option', { name: 'work' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'work' } });
    expect((screen.getByLabelText('Resource name') as HTMLInputElement).value).toBe('contoso');
    // The deployment is the model the chain names: nothing here would keep it.
    expect(screen.queryByLabelText('Deployment')).toBeNull();
    add();
    expect((await screen.findByRole('alert')).textContent).toBe('The API key is empty.');
    type('API key', 'azure-key');
    type('API version', '2024-13');
    add();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'API version: “2024-13” is not v1 or a date like 2024-10-21.',
    );
    expect(sent()).toEqual([]);
    type('API version', '');
    type('Base URL (instead of a resource name)', 'https://contoso.cognitiveservices.azure.com/openai/');
    add();
    await waitFor(() => expect(sent()).toEqual(['config.patch', 'auth.profiles.set']));
    expect(app.gateway.calls('config.patch')).toEqual([
      {
        patch: {
          providers: {
            work: {
              kind: 'azure',
              baseURL: 'https://contoso.cognitiveservices.azure.com/openai',
              resourceName: null,
              apiVersion: null,
            },
          },
        },
      },
    ]);
    expect(app.gateway.calls('auth.profiles.set')).toEqual([
      { id: 'work:default', provider: 'work', type: 'api_key', secret: 'azure-key' },
    ]);
  });

  it('names the refused field in the person’s language', async () => {
    app = startTestApp({});
    app.stores.ui.getState().setLanguage('zh');
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    fireEvent.change(screen.getByLabelText('提供方'), { target: { value: 'bedrock' } });
    fireEvent.change(screen.getByLabelText('AWS 区域'), { target: { value: 'us-east' } });
    fireEvent.click(screen.getByRole('button', { name: '添加' }));
    expect((await screen.findByRole('alert')).textContent).toBe('AWS 区域：“us-east”不是 us-east-1 这样的 AWS 区域。');
  });

  it('says where a saved key goes: the keychain only when it is there, the fallback and its reason in the person’s language', async () => {
    const fallbackReason = 'the OS keychain refused to answer: Cannot autolaunch D-Bus without X11 $DISPLAY';
    app = startTestApp({
      'auth.profiles.list': () => ({
        secretBackend: 'encrypted-file',
        secretWarning: `Secrets are in an encrypted file because no OS keychain is available: ${fallbackReason}`,
        secretFallbackReason: fallbackReason,
        profiles: [],
      }),
    });
    app.stores.ui.getState().setLanguage('zh');
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    const banner = await screen.findByText(/没有可用的系统钥匙串/);
    expect(banner.textContent).toContain(fallbackReason);
    expect(banner.textContent).not.toContain('Secrets are in');
    expect(screen.getByText('保存在 Hearth 的加密密钥文件中，之后不再显示。')).toBeTruthy();
    expect(screen.queryByText(/保存在系统钥匙串中/)).toBeNull();
  });

  it('shows no fallback banner and names the keychain when secrets are there', async () => {
    app = startTestApp({ 'auth.profiles.list': () => ({ secretBackend: 'keychain', profiles: [] }) });
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    await screen.findByText('No auth profiles yet.');
    expect(screen.getByText('Stored in the system keychain and never shown again.')).toBeTruthy();
    expect(document.querySelector('.secret-warning')).toBeNull();
  });
});
