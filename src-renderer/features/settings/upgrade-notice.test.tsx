import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createAboutStore, memoryStorage } from '../../stores/about-store.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { AboutPanel } from './about-panel.js';
import { UpgradeNotice } from './upgrade-notice.js';

const status = () => ({
  runtimeVersion: '0.3.0',
  protocol: 4,
  uptimeMs: 1,
  bind: { host: '127.0.0.1', port: 1, tls: false },
  heartbeat: {},
  sessions: { count: 0 },
  connections: 1,
  home: '/h',
  secrets: { backend: 'file' },
  upgrades: {
    formats: [
      { format: 'config', label: 'hearth.json (config)', path: 'hearth.json', version: 1, current: 1, explicit: false },
      {
        format: 'permissions',
        label: 'approvals',
        path: 'state/permissions.json',
        version: 1,
        current: 1,
        explicit: true,
      },
    ],
    lastEvent: {
      kind: 'migrated',
      atMs: 1_700_000_000_000,
      appVersion: '0.3.0',
      message: 'Upgraded state/permissions.json v0→v1; the files as they were are in backups/b1',
      backups: ['backups/b1'],
      files: ['state/permissions.json v0→v1'],
    },
  },
});

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

describe('upgrade notice and About', () => {
  it('tells the last upgrade once: dismissed, the same event stays quiet on this device', async () => {
    const storage = memoryStorage();
    app = startTestApp({ status });
    // The app's stores take the page's storage; here the about store is rebuilt over one kept across "reloads".
    const first = createAboutStore(app.client, storage);
    Object.assign(app.stores, { about: first });
    renderWithStores(app, <UpgradeNotice />);
    await act(() => first.getState().refresh());
    expect((await screen.findByTestId('upgrade-notice')).textContent).toContain('Hearth upgraded your data');
    // The message names the backup already: not said twice.
    expect(screen.queryByText(/^Backups:/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByTestId('upgrade-notice')).toBeNull();

    const again = createAboutStore(app.client, storage);
    await again.getState().refresh();
    expect(again.getState().notice).toBeUndefined();
    expect(again.getState().runtimeVersion).toBe('0.3.0');
    first.dispose();
    again.dispose();
  });

  it('shows version, data folder, config format and the last upgrade', async () => {
    app = startTestApp({ status });
    renderWithStores(app, <AboutPanel />);
    const panel = await screen.findByTestId('about-panel');
    await screen.findByText('0.3.0');
    expect(panel.textContent).toContain('/h');
    expect(panel.textContent).toContain('version 1 (this Hearth reads up to 1)');
    expect(screen.getByTestId('about-last-upgrade').textContent).toContain('backups/b1');
  });

  it("says the upgrade in the person's language from its parts; an older event keeps the server's sentence", async () => {
    app = startTestApp({ status });
    act(() => app.stores.ui.getState().setLanguage('zh'));
    renderWithStores(app, <UpgradeNotice />);
    await act(() => app.stores.about.getState().refresh());
    const notice = await screen.findByTestId('upgrade-notice');
    expect(notice.textContent).toContain('已升级 state/permissions.json v0→v1；升级前的文件保存在 backups/b1。');
    expect(notice.textContent).not.toContain('Upgraded');
    cleanup();
    app.dispose();

    // Written by a Hearth before the parts were kept: only the English sentence exists.
    const older = () => {
      const s = status();
      const { files: _files, ...event } = s.upgrades.lastEvent;
      return { ...s, upgrades: { ...s.upgrades, lastEvent: event } };
    };
    app = startTestApp({ status: older });
    act(() => app.stores.ui.getState().setLanguage('zh'));
    renderWithStores(app, <UpgradeNotice />);
    await act(() => app.stores.about.getState().refresh());
    expect((await screen.findByTestId('upgrade-notice')).textContent).toContain(
      'Upgraded state/permissions.json v0→v1',
    );
  });
});
