import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src-main/protocol/errors.js';
import { renderWithStores, startTestApp, type TestApp } from '../testing/render-app.js';
import { formatTime } from '../ui/use-now.js';
import { ApprovalsView } from './approvals/approvals-view.js';
import { AuthProfilesView } from './auth/auth-profiles-view.js';
import { CanvasView } from './canvas/canvas-view.js';
import { DevicesView } from './devices/devices-view.js';
import { DreamsView } from './dreams/dreams-view.js';
import { MemoryView } from './memory/memory-view.js';
import { SettingsView } from './settings/settings-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const NOW = 1_700_000_000_000;

describe('ApprovalsView', () => {
  const pending = {
    id: 'ap1',
    agentId: 'main',
    sessionKey: 'agent:main:main',
    command: 'rm -rf ./build',
    cwd: '/home/me/project',
    reasons: [{ code: 'risky', detail: 'deletes files recursively' }],
    allowedDecisions: ['allow-once', 'allow-always', 'deny'],
    allowAlways: [{ pattern: 'rm', argPattern: '^-rf ./build$' }],
    createdAtMs: NOW,
    expiresAtMs: NOW + 120_000,
    request: {
      command: 'rm -rf ./build',
      cwd: '/home/me/project',
      host: 'gateway',
      allowedDecisions: ['allow-once', 'allow-always', 'deny'],
    },
  };

  it('lets the person limit "Always allow" to these exact arguments, and shows what will be added', async () => {
    const narrowable = {
      ...pending,
      allowAlways: [{ pattern: '/usr/bin/rm' }],
      allowAlwaysExact: [{ pattern: '/usr/bin/rm', argPattern: '^-rf ./build$' }],
    };
    app = startTestApp({ 'exec.approval.list': () => [narrowable], 'exec.approval.resolve': () => ({ ok: true }) });
    renderWithStores(app, <ApprovalsView />);
    const card = within(await screen.findByTestId('approval-card'));
    expect(card.getByText('Adds to the allowlist: /usr/bin/rm')).toBeTruthy();
    fireEvent.change(card.getByLabelText('Always allow:'), { target: { value: 'exact' } });
    expect(card.getByText('Adds to the allowlist: /usr/bin/rm ^-rf ./build$')).toBeTruthy();
    fireEvent.click(card.getByRole('button', { name: /Always allow/ }));
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([
        { id: 'ap1', decision: 'allow-always', allowAlwaysScope: 'exact' },
      ]),
    );
  });

  it('shows command, why, cwd, agent, time left and the allowlist entry; A allows once', async () => {
    app = startTestApp({ 'exec.approval.list': () => [pending], 'exec.approval.resolve': () => ({ ok: true }) });
    renderWithStores(app, <ApprovalsView />);
    const card = await screen.findByTestId('approval-card');
    const view = within(card);
    expect(view.getByText('rm -rf ./build')).toBeTruthy();
    expect(view.getByText('deletes files recursively')).toBeTruthy();
    expect(view.getByText('/home/me/project')).toBeTruthy();
    expect(view.getByText('main')).toBeTruthy();
    expect(view.getByText('2:00 left')).toBeTruthy();
    expect(view.getByText('Adds to the allowlist: rm ^-rf ./build$')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'a' });
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([{ id: 'ap1', decision: 'allow-once' }]),
    );
    act(() =>
      app.gateway.emit('exec.approval.resolved', {
        id: 'ap1',
        decision: 'allow-once',
        resolvedBy: 'Control UI',
        ts: NOW,
      }),
    );
    expect(screen.getByText('No commands are waiting for approval.')).toBeTruthy();
    expect(screen.getByText('Allow once by Control UI')).toBeTruthy();
  });

  it("shows smart triage decisions in the history with the judge's reason", async () => {
    app = startTestApp({ 'exec.approval.list': () => [pending] });
    renderWithStores(app, <ApprovalsView />);
    await screen.findByTestId('approval-card');
    act(() =>
      app.gateway.emit('exec.approval.resolved', {
        id: 'ap1',
        decision: 'deny',
        resolvedBy: 'smart-judge',
        reason: 'deletes outside the workspace',
        ts: NOW,
      }),
    );
    expect(screen.getByText('Deny by smart triage')).toBeTruthy();
    expect(screen.getByText('deletes outside the workspace')).toBeTruthy();
  });

  it('denies with the Deny button and ignores shortcut keys typed into a field', async () => {
    app = startTestApp({ 'exec.approval.list': () => [pending], 'exec.approval.resolve': () => ({ ok: true }) });
    renderWithStores(
      app,
      <>
        <input aria-label="elsewhere" />
        <ApprovalsView />
      </>,
    );
    await screen.findByTestId('approval-card');
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'elsewhere' }), { key: 'a' });
    fireEvent.click(screen.getByRole('button', { name: /Deny/ }));
    await waitFor(() => expect(app.gateway.calls('exec.approval.resolve')).toEqual([{ id: 'ap1', decision: 'deny' }]));
  });
});

describe('AuthProfilesView', () => {
  const row = (extra: Record<string, unknown>) => ({
    type: 'api_key',
    fromConfig: false,
    cooldownRemainingMs: 0,
    failureCounts: {},
    verified: true,
    ...extra,
  });
  it('shows ready, cooling down with countdown and reason, and disabled with its fix', async () => {
    app = startTestApp(
      {
        'auth.profiles.list': () => ({
          secretBackend: 'keychain',
          profiles: [
            row({ id: 'p1', provider: 'openai', label: 'Personal', status: 'ok', lastUsed: NOW - 60_000 }),
            row({
              id: 'p2',
              provider: 'openai',
              label: 'Work',
              status: 'cooldown',
              cooldownRemainingMs: 90_000,
              lastErrorReason: 'rate limited (429)',
              failureCounts: { rate_limit: 3 },
            }),
            row({
              id: 'p3',
              provider: 'anthropic',
              label: 'Old',
              status: 'disabled',
              disabledReason: 'key rejected (401)',
            }),
          ],
        }),
      },
      { now: () => NOW },
    );
    renderWithStores(app, <AuthProfilesView />);
    const rows = await screen.findAllByTestId('auth-profile');
    expect(rows.map((r) => r.dataset.status)).toEqual(['ready', 'cooldown', 'disabled']);
    expect(within(rows[1]!).getByRole('timer').textContent).toBe('Back in 1:30');
    expect(within(rows[1]!).getByText('rate limited (429)')).toBeTruthy();
    expect(within(rows[1]!).getByText(/3 failures/)).toBeTruthy();
    expect(within(rows[2]!).getByText('key rejected (401)')).toBeTruthy();
    expect(within(rows[2]!).getByText(/How to fix: Add the profile again/)).toBeTruthy();
  });

  it('re-reads profiles when shown: a cooldown from a run sends no auth.profiles.changed', async () => {
    let status = 'ok';
    app = startTestApp({
      'auth.profiles.list': () => ({
        secretBackend: 'keychain',
        profiles: [row({ id: 'p1', provider: 'openai', label: 'Personal', status, cooldownRemainingMs: 60_000 })],
      }),
    });
    await act(() => app.client.waitForConnected());
    await waitFor(() => expect(app.stores.auth.getState().profiles[0]?.status).toBe('ready'));
    status = 'cooldown';
    renderWithStores(app, <AuthProfilesView />);
    await waitFor(() => expect(screen.getByTestId('auth-profile').dataset.status).toBe('cooldown'));
  });

  it("edits the fallback models and the order of a provider's profiles", async () => {
    app = startTestApp({
      'auth.profiles.list': () => ({
        secretBackend: 'keychain',
        profiles: [
          row({ id: 'work', provider: 'openai', label: 'Work', status: 'ok' }),
          row({ id: 'home', provider: 'openai', label: 'Home', status: 'ok' }),
        ],
      }),
      'models.list': () => ({ models: [], primary: 'openai/gpt-4o', fallbacks: ['anthropic/claude-sonnet-4-5'] }),
      'config.patch': () => ({ ok: true }),
    });
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    const fallbacks = (await screen.findByLabelText(/Fallback models/)) as HTMLInputElement;
    await waitFor(() => expect(fallbacks.value).toBe('anthropic/claude-sonnet-4-5'));
    expect(screen.getByText('Turns use openai/gpt-4o first.')).toBeTruthy();
    fireEvent.change(fallbacks, { target: { value: 'anthropic/claude-sonnet-4-5, ollama/llama3.2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save fallbacks' }));
    const order = (await screen.findByLabelText('Profiles of openai, in the order to try them')) as HTMLInputElement;
    await waitFor(() => expect(order.value).toBe('work, home'));
    fireEvent.change(order, { target: { value: 'home, work' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save order' }));
    await waitFor(() =>
      expect(app.gateway.calls('config.patch')).toEqual([
        {
          patch: {
            agents: {
              defaults: {
                model: { primary: 'openai/gpt-4o', fallbacks: ['anthropic/claude-sonnet-4-5', 'ollama/llama3.2'] },
              },
            },
          },
        },
        { patch: { auth: { order: { openai: ['home', 'work'] } } } },
      ]),
    );
  });

  it('adds a profile and clears the key field; an empty key is refused with a message', async () => {
    app = startTestApp({ 'auth.profiles.set': () => ({ profile: {} }) });
    renderWithStores(app, <AuthProfilesView />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The API key is empty.')).toBeTruthy();
    const key = screen.getByLabelText('API key') as HTMLInputElement;
    fireEvent.change(key, { target: { value: 'sk-test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(app.gateway.calls('auth.profiles.set')).toEqual([
        { id: 'openai:default', provider: 'openai', type: 'api_key', secret: 'sk-test' },
      ]),
    );
    await waitFor(() => expect(key.value).toBe(''));
  });
});

describe('MemoryView', () => {
  it('finds a planted note with the query words marked and the score breakdown on hover', async () => {
    app = startTestApp({
      'memory.search': () => ({
        results: [
          {
            path: 'memory/2026-11-29.md',
            startLine: 4,
            endLine: 4,
            snippet: 'Alice prefers green tea',
            score: 0.82,
            vectorScore: 0.7,
            textScore: 0.9,
            decay: 0.95,
            heading: '',
            category: 'preference',
          },
        ],
      }),
      'memory.file.get': (p) => ({ path: p.path, content: p.path === 'MEMORY.md' ? '# Facts\n\n- likes tea' : '' }),
    });
    renderWithStores(app, <MemoryView />);
    expect(await screen.findByRole('heading', { name: 'Facts' })).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search memory' }), { target: { value: 'green tea' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const hit = await screen.findByTestId('memory-hit');
    expect([...hit.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['green', 'tea']);
    // A dated note, not a path and a score: the score and its parts are in the tooltip.
    const note = within(hit).getByTestId('memory-note');
    expect(within(note).getByText('Nov 29, 2026')).toBeTruthy();
    expect(hit.textContent).not.toContain('memory/2026-11-29.md');
    expect(note.getAttribute('title')).toBe('Relevance 0.82 (vector 0.70 · text 0.90 · decay 0.95)');
    expect(app.gateway.calls('memory.search')).toEqual([{ agentId: 'main', query: 'green tea', k: 20 }]);
  });

  it('edits MEMORY.md and saves it through the gateway', async () => {
    app = startTestApp({ 'memory.file.get': () => ({ content: 'old' }), 'memory.file.set': () => ({ ok: true }) });
    renderWithStores(app, <MemoryView />);
    await waitFor(() => expect(app.stores.memory.getState().docs['MEMORY.md']).toBe('old'));
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit' })[0]!);
    fireEvent.change(screen.getByRole('textbox', { name: 'MEMORY.md' }), { target: { value: 'new facts' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(app.gateway.calls('memory.file.set')).toEqual([
        { agentId: 'main', path: 'MEMORY.md', content: 'new facts' },
      ]),
    );
  });
});

describe('DreamsView', () => {
  it('renders DREAMS.md as a diary, runs a preview into phase reports, and explains a candidate', async () => {
    const candidate = {
      text: 'Alice prefers green tea',
      path: 'memory/2026-11-29.md',
      line: 4,
      recalls: 4,
      uniqueQueries: 3,
      score: 0.91,
      signals: { frequency: 0.8 },
      failures: [],
    };
    app = startTestApp({
      'memory.file.get': (p) => ({
        path: p.path,
        content: p.path === 'DREAMS.md' ? '# Night of 29 Nov\n\nI kept thinking about **green tea**.' : '',
      }),
      'dreams.candidates': () => ({ candidates: [candidate] }),
      'dreams.run': () => ({
        day: '2026-11-29',
        applied: false,
        notesSeen: 12,
        recalls: 30,
        reflections: [{ tag: 'tea', count: 3 }],
        truths: [],
        candidates: [candidate],
        promoted: [],
      }),
      'dreams.explain': () => ({ lines: ['recalled 4 times from 3 queries', 'passes every gate'] }),
    });
    renderWithStores(app, <DreamsView />);
    expect(await screen.findByRole('heading', { name: 'Night of 29 Nov' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(app.gateway.calls('dreams.run')).toEqual([{ agentId: 'main', apply: false }]));
    fireEvent.click(screen.getByRole('tab', { name: 'Phase reports' }));
    expect(await screen.findByText(/Recurring themes: tea \(3\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: /Promotion candidates/ }));
    const card = screen.getByTestId('dream-candidate');
    expect(within(card).getByText('Alice prefers green tea')).toBeTruthy();
    expect(within(card).getByText('recalls')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Why?' }));
    expect(await within(card).findByText('recalled 4 times from 3 queries')).toBeTruthy();
  });
});

describe('DreamsView schedule', () => {
  it('says when Dreaming runs next and how the last run went, or how to turn it on', async () => {
    const next = new Date(2026, 11, 1, 3, 0).getTime();
    const lastAt = new Date(2026, 10, 30, 3, 0).getTime();
    app = startTestApp({
      'dreams.status': () => ({
        enabled: true,
        cron: '0 3 * * *',
        next,
        last: { at: lastAt, promoted: 2, applied: true },
      }),
    });
    renderWithStores(app, <DreamsView />);
    const line = await screen.findByTestId('dreams-schedule');
    expect(line.textContent).toContain('Dreams every night (0 3 * * *). Next: ');
    expect(line.textContent).toContain(formatTime(next));
    expect(line.textContent).toContain(`Last run ${formatTime(lastAt)}: 2 promoted.`);
    cleanup();
    app.dispose();

    app = startTestApp({ 'dreams.status': () => ({ enabled: false, cron: '0 3 * * *' }) });
    renderWithStores(app, <DreamsView />);
    expect((await screen.findByTestId('dreams-schedule')).textContent).toBe(
      'Nightly Dreaming is off: turn on memory.dreaming.enabled in Settings, or run it now.',
    );
  });
});

describe('DreamsView re-read', () => {
  it('shows a diary written while the app was elsewhere (the CLI sends no dreams.changed)', async () => {
    let diary = '# Dreams';
    app = startTestApp({ 'memory.file.get': (p) => ({ path: p.path, content: diary }) });
    await act(() => app.client.waitForConnected());
    await waitFor(() => expect(app.stores.dreams.getState().diary).toBe('# Dreams'));
    diary = '# Dreams\n\n## 2026-11-30\n\nPromoted 1 to MEMORY.md: tea.';
    renderWithStores(app, <DreamsView />);
    expect(await screen.findByText('Promoted 1 to MEMORY.md: tea.')).toBeTruthy();
  });
});

describe('CanvasView', () => {
  it('frames the canvas sandboxed without same-origin and reloads it on canvas.changed', async () => {
    app = startTestApp();
    renderWithStores(app, <CanvasView />);
    await act(() => app.client.waitForConnected());
    const frame = screen.getByTestId('canvas-frame') as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('src')).toBe('/__hearth__/canvas/?v=0&theme=light');
    act(() => app.gateway.emit('canvas.changed', { path: 'index.html' }));
    expect((screen.getByTestId('canvas-frame') as HTMLIFrameElement).getAttribute('src')).toBe(
      '/__hearth__/canvas/?v=1&theme=light',
    );
  });
});

describe('DevicesView', () => {
  it('lists paired devices with scopes and revokes one', async () => {
    app = startTestApp({
      'device.pair.list': () => ({
        pending: [],
        paired: [
          {
            deviceId: 'dev1',
            displayName: 'Pixel 9',
            platform: 'android',
            scopes: ['operator.read', 'operator.write'],
          },
        ],
      }),
      'device.pair.remove': () => ({ ok: true }),
    });
    renderWithStores(app, <DevicesView />);
    const device = await screen.findByTestId('device');
    expect(within(device).getByText('Pixel 9')).toBeTruthy();
    expect(within(device).getByText('operator.write')).toBeTruthy();
    fireEvent.click(within(device).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(app.gateway.calls('device.pair.remove')).toEqual([{ deviceId: 'dev1' }]));
  });
});

describe('SettingsView', () => {
  it('shows schema errors from config.set inline next to the editor', async () => {
    app = startTestApp({
      'config.set': () => {
        throw new GatewayError('INVALID_REQUEST', 'invalid config', {
          errors: [{ path: 'gateway.port', message: 'expected number' }],
        });
      },
    });
    renderWithStores(app, <SettingsView />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(screen.getByRole('tab', { name: 'Advanced' }));
    const editor = await screen.findByRole('textbox', { name: 'Config file' });
    fireEvent.change(editor, { target: { value: '{"gateway":{"port":"x"}}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('gateway.port');
    expect(alert.textContent).toContain('expected number');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
  });

  it('switches the UI language to Chinese', async () => {
    app = startTestApp();
    renderWithStores(app, <SettingsView />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'zh' } });
    expect(screen.getByRole('heading', { name: '设置' })).toBeTruthy();
    // Channel approval prompts follow it: the choice is kept in hearth.json too (ui.language).
    await waitFor(() =>
      expect(app.gateway.calls('config.patch').at(-1)).toMatchObject({ patch: { ui: { language: 'zh' } } }),
    );
  });
});
