import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { CommandLayer } from './command-layer.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const ctrl = (key: string, extra: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.activeElement ?? document.body, { key, ctrlKey: true, ...extra });

describe('the command palette', () => {
  it('opens on Ctrl-K, filters as you type, moves with the arrows and runs New chat on Enter', async () => {
    app = startTestApp({ 'sessions.create': () => ({ ok: true, key: 'agent:main:chat-00aa11bb', session: {} }) });
    app.stores.ui.getState().navigate('settings');
    renderWithStores(app, <CommandLayer mac={false} />);
    await act(() => app.client.waitForConnected());
    ctrl('k');
    const palette = screen.getByRole('dialog', { name: 'Command palette' });
    const box = within(palette).getByRole('combobox');
    expect(document.activeElement).toBe(box);
    expect(within(palette).getAllByRole('option').length).toBeGreaterThan(10);

    fireEvent.change(box, { target: { value: 'chat' } });
    const options = within(palette).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toContain('New chatCtrl Shift O');
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });

    fireEvent.change(box, { target: { value: 'new' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(app.gateway.calls('sessions.create')).toMatchObject([{ agentId: 'main' }]));
    expect(app.stores.ui.getState().view).toBe('chat');
    expect(app.stores.ui.getState().focusRequest).toBe('composer');
  });

  it('says when nothing matches, and closes on Esc without running anything', () => {
    app = startTestApp();
    renderWithStores(app, <CommandLayer mac={false} />);
    ctrl('k');
    const box = screen.getByRole('combobox');
    fireEvent.change(box, { target: { value: 'zebra' } });
    expect(screen.getByText('No command matches.')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.stores.ui.getState().view).toBe('chat');
  });

  it('switches views and opens the shortcuts help from the palette', () => {
    app = startTestApp();
    renderWithStores(app, <CommandLayer mac={false} />);
    ctrl('k');
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'go to usage' } });
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'Enter' });
    expect(app.stores.ui.getState().view).toBe('usage');

    ctrl('k');
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'keyboard' } });
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'Enter' });
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
  });
});

describe('global shortcuts', () => {
  it('? opens the help listing every shortcut; a ? typed in a field stays text', () => {
    app = startTestApp();
    renderWithStores(
      app,
      <>
        <input aria-label="somewhere" />
        <CommandLayer mac={true} />
      </>,
    );
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'somewhere' }), { key: '?', shiftKey: true });
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.keyDown(document.body, { key: '?', shiftKey: true });
    const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const rows = within(help)
      .getAllByTestId('shortcut-row')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'Open the command palette⌘ K',
      'New chat⌘ Shift O',
      'Search chats⌘ Shift F',
      'Focus the message box/',
      'Stop the running answerEsc',
      'Show these shortcuts?⌘ /',
    ]);
    fireEvent.keyDown(help, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Ctrl-Shift-F asks the chat for its search, / for the message box', () => {
    app = startTestApp();
    app.stores.ui.getState().navigate('memory');
    renderWithStores(app, <CommandLayer mac={false} />);
    ctrl('F', { shiftKey: true });
    expect(app.stores.ui.getState()).toMatchObject({ view: 'chat', focusRequest: 'chat-search' });
    app.stores.ui.getState().clearFocusRequest();
    fireEvent.keyDown(document.body, { key: '/' });
    expect(app.stores.ui.getState().focusRequest).toBe('composer');
  });
});
