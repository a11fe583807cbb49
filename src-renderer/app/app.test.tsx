import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src-main/testing/fake-clock.js';
import { renderWithStores, startTestApp, type TestApp } from '../testing/render-app.js';
import { App } from './app.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

describe('App shell', () => {
  it('navigates between views from the sidebar and marks the current one', async () => {
    app = startTestApp({}, { view: 'settings' });
    renderWithStores(app, <App />);
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    fireEvent.click(sidebar.querySelector('[data-testid="nav-dreams"]')!);
    expect(await screen.findByRole('heading', { name: 'Dreams' })).toBeTruthy();
    expect(sidebar.querySelector('[data-testid="nav-dreams"]')!.getAttribute('aria-current')).toBe('page');
  });

  it('counts pending approvals in the navigation', async () => {
    app = startTestApp({}, { view: 'settings' });
    const { container } = renderWithStores(app, <App />);
    await act(() => app.client.waitForConnected());
    act(() =>
      app.gateway.emit('exec.approval.requested', {
        id: 'a',
        request: { command: 'ls' },
        createdAtMs: 0,
        expiresAtMs: 0,
      }),
    );
    const count = container.querySelector('.sidebar [data-testid="nav-approvals"] .count');
    expect(count?.textContent).toBe('1');
  });

  it('shows the connection state and a reconnect banner with the reason when the gateway drops', async () => {
    // The retry waits for this clock, so the banner stays up until the test lets the client retry.
    const clock = createFakeClock();
    app = startTestApp({}, { view: 'settings', clock });
    renderWithStores(app, <App />);
    await act(() => app.client.waitForConnected());
    expect(screen.getAllByText('Connected').length).toBeGreaterThan(0);
    act(() => app.gateway.drop(1012, 'gateway stopping'));
    // Other views hold status lines of their own; the banner is the one that says it is reconnecting.
    const mentions = await screen.findAllByText(/Reconnecting/);
    const banner = mentions.map((el) => el.closest('[role="status"]')).find((el) => el !== null);
    if (!banner) throw new Error('the reconnect notice is not a status region');
    expect(banner.textContent).toContain('gateway stopping');
    expect(banner.textContent).toMatch(/Retrying in \d+s/);
    act(() => clock.advance(60_000));
    await act(() => app.client.waitForConnected());
    await waitFor(() => expect(screen.queryByText(/gateway stopping/)).toBeNull());
  });

  it('asks for a token when the gateway refuses ours, and hands the new one back', async () => {
    app = startTestApp({}, { refuseToken: true });
    const tokens: string[] = [];
    renderWithStores(app, <App onToken={(token) => tokens.push(token)} />);
    expect(
      await screen.findByText('The gateway did not accept this token. (unauthorized: gateway token mismatch)'),
    ).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Gateway token'), { target: { value: ' fresh ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(tokens).toEqual(['fresh']);
  });

  it('offers a More sheet on the phone tab bar for the views without a tab', async () => {
    app = startTestApp({}, { view: 'settings' });
    renderWithStores(app, <App />);
    fireEvent.click(screen.getByTestId('nav-more'));
    const sheet = screen.getByRole('menu', { name: 'More' });
    fireEvent.click(sheet.querySelector('[data-testid="nav-devices"]')!);
    expect(await screen.findByRole('heading', { name: 'Devices' })).toBeTruthy();
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
