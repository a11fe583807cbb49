import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { ChatView } from './chat-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const viewport = { width: 900, height: 700 };
const row = (key: string, fields: Record<string, unknown> = {}) => ({
  key,
  kind: 'direct',
  agentId: key.split(':')[1],
  sessionId: `s-${key}`,
  displayName: key,
  createdAt: 0,
  updatedAt: 1,
  ...fields,
});

/** A gateway whose session list follows the chat methods, as the real one does. */
function chatGateway(initial: Record<string, unknown>[]) {
  let rows = [...initial];
  const patch = (key: unknown, fields: Record<string, unknown>) => {
    rows = rows.map((r) => (r.key === key ? { ...r, ...fields } : r));
    return { ok: true, key, session: rows.find((r) => r.key === key) };
  };
  return {
    'sessions.list': () => ({ sessions: rows }),
    'sessions.create': (p: Record<string, unknown>) => {
      const created = row(`agent:${String(p.agentId)}:chat-1`, {
        displayName: 'chat-1',
        label: 'chat-1',
        updatedAt: 9,
      });
      rows = [created, ...rows];
      return { ok: true, key: created.key, session: created };
    },
    'sessions.rename': (p: Record<string, unknown>) => patch(p.key, { title: p.title, displayName: p.title }),
    'sessions.pin': (p: Record<string, unknown>) => patch(p.key, { pinned: p.pinned }),
    'sessions.archive': (p: Record<string, unknown>) => patch(p.key, { archived: p.archived }),
    'sessions.delete': (p: Record<string, unknown>) => {
      rows = rows.filter((r) => r.key !== p.key);
      return { ok: true, key: p.key, deleted: true, transcriptDeleted: true };
    },
    'sessions.fork': (p: Record<string, unknown>) => {
      const forked = row('agent:main:chat-2', { displayName: 'chat-2', updatedAt: 10 });
      rows = [forked, ...rows];
      return { ok: true, key: forked.key, session: forked, from: p.key };
    },
  };
}

const actionsOf = (title: string) => screen.getByRole('button', { name: `Chat actions for ${title}` });

describe('the chat list', () => {
  it('shows readable names, never a raw key such as agent:main:main', async () => {
    app = startTestApp(
      chatGateway([row('agent:main:main'), row('agent:main:work-notes', { displayName: 'work-notes' })]),
    );
    renderWithStores(app, <ChatView viewport={viewport} />);
    expect(await screen.findByRole('button', { name: 'work-notes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Main' })).toBeTruthy();
    expect(screen.queryByText('agent:main:main')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Main' })).toBeTruthy();
  });

  it('starts a new chat for the agent and opens it', async () => {
    app = startTestApp(chatGateway([row('agent:main:main')]));
    renderWithStores(app, <ChatView viewport={viewport} />);
    await act(() => app.client.waitForConnected());
    fireEvent.click(screen.getByRole('button', { name: 'New chat' }));
    await waitFor(() => expect(app.stores.sessions.getState().activeKey).toBe('agent:main:chat-1'));
    expect(app.gateway.calls('sessions.create')).toMatchObject([{ agentId: 'main' }]);
    expect(await screen.findByRole('heading', { name: 'chat-1' })).toBeTruthy();
  });

  it('renames, pins and archives a chat from its menu', async () => {
    app = startTestApp(chatGateway([row('agent:main:main'), row('agent:main:trip', { displayName: 'trip' })]));
    renderWithStores(app, <ChatView viewport={viewport} />);
    await screen.findByRole('button', { name: 'trip' });

    fireEvent.click(actionsOf('trip'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'New name for trip' }), { target: { value: 'Lisbon trip' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Lisbon trip' })).toBeTruthy();
    expect(app.gateway.calls('sessions.rename')).toEqual([{ key: 'agent:main:trip', title: 'Lisbon trip' }]);

    fireEvent.click(actionsOf('Lisbon trip'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Pin' }));
    expect(await screen.findByRole('button', { name: 'Pinned Lisbon trip' })).toBeTruthy();

    fireEvent.click(actionsOf('Lisbon trip'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Archive' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Lisbon trip/ })).toBeNull());
    expect(app.gateway.calls('sessions.archive')).toEqual([{ key: 'agent:main:trip', archived: true }]);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show archived chats' }));
    expect(screen.getByRole('button', { name: 'Pinned Lisbon trip Archived' })).toBeTruthy();
  });

  it('deletes only after the person confirms, and the transcript goes with it', async () => {
    app = startTestApp(chatGateway([row('agent:main:main'), row('agent:main:scratch', { displayName: 'scratch' })]));
    renderWithStores(app, <ChatView viewport={viewport} />);
    await screen.findByRole('button', { name: 'scratch' });

    fireEvent.click(actionsOf('scratch'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Delete "scratch" and its transcript?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(app.gateway.calls('sessions.delete')).toEqual([]);
    expect(screen.getByRole('button', { name: 'scratch' })).toBeTruthy();

    fireEvent.click(actionsOf('scratch'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'scratch' })).toBeNull());
    expect(app.gateway.calls('sessions.delete')).toMatchObject([{ key: 'agent:main:scratch', deleteTranscript: true }]);
  });

  it('says why a change was refused', async () => {
    app = startTestApp({
      ...chatGateway([row('agent:main:main'), row('agent:main:x', { displayName: 'x' })]),
      'sessions.pin': () => {
        throw new Error('no session agent:main:x');
      },
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Chat actions for x' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Pin' }));
    expect((await screen.findByRole('alert')).textContent).toContain('no session agent:main:x');
  });

  it('forks a chat from a message in the transcript and opens the fork', async () => {
    app = startTestApp({
      ...chatGateway([row('agent:main:main')]),
      'chat.history': (p) => ({
        messages:
          p.sessionKey === 'agent:main:main'
            ? [
                { id: 'm1', kind: 'user', text: 'Plan a trip', ts: 1 },
                { id: 'm2', kind: 'assistant', text: 'Where to?', ts: 2 },
              ]
            : [{ id: 'm1', kind: 'user', text: 'Plan a trip', ts: 1 }],
        hasMore: false,
      }),
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    await screen.findByText('Where to?');
    const forks = screen.getAllByRole('button', { name: 'Fork from here' });
    expect(forks).toHaveLength(2);
    fireEvent.click(forks[1]!);
    await waitFor(() => expect(app.stores.sessions.getState().activeKey).toBe('agent:main:chat-2'));
    expect(app.gateway.calls('sessions.fork')).toMatchObject([{ key: 'agent:main:main', messageId: 'm2' }]);
    expect(await screen.findByRole('heading', { name: 'chat-2' })).toBeTruthy();
  });

  it('forks after a reply it saw stream, by the run, before the transcript is re-read', async () => {
    app = startTestApp({
      ...chatGateway([row('agent:main:main')]),
      'chat.send': (p) => ({ runId: p.idempotencyKey, status: 'started' }),
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    await act(() => app.client.waitForConnected());
    await act(() => app.stores.chat.getState().send('agent:main:main', 'hello'));
    const runId = app.gateway.calls('chat.send')[0]!.idempotencyKey as string;
    expect(screen.queryByRole('button', { name: 'Fork from here' })).toBeNull();
    act(() =>
      app.gateway.emit('chat', {
        runId,
        sessionKey: 'agent:main:main',
        state: 'final',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Hi there.' }] },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Fork from here' }));
    await waitFor(() => expect(app.stores.sessions.getState().activeKey).toBe('agent:main:chat-2'));
    expect(app.gateway.calls('sessions.fork')).toMatchObject([{ key: 'agent:main:main', runId }]);
  });
});
