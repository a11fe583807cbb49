import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { ChatView } from '../chat/chat-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const viewport = { width: 900, height: 700 };
const agentRow = (id: string, name = id) => ({
  id,
  kind: 'agent',
  name,
  workspace: `/h/${id}`,
  model: { primary: null, fallbacks: [] },
});
const chat = (key: string, updatedAt: number, displayName: string) => ({
  key,
  kind: 'direct',
  agentId: key.split(':')[1],
  sessionId: `s-${key}`,
  displayName,
  label: displayName,
  createdAt: 0,
  updatedAt,
});

function agentsApp() {
  let agents = [agentRow('main'), agentRow('research', 'Research')];
  return startTestApp({
    'agents.list': () => ({ defaultId: 'main', mainKey: 'main', scope: 'per-sender', agents }),
    'sessions.list': () => ({
      sessions: [
        chat('agent:main:main', 5, 'Main'),
        chat('agent:main:groceries', 4, 'groceries'),
        chat('agent:research:papers', 3, 'papers'),
        chat('agent:research:older', 1, 'older'),
      ],
    }),
    'sessions.create': (p) => {
      const created = chat(`agent:${String(p.agentId)}:chat-1`, 9, 'chat-1');
      return { ok: true, key: created.key, session: created };
    },
    'agents.create': (p) => {
      if (p.name === 'main') throw new GatewayError('INVALID_REQUEST', 'an agent "main" already exists');
      agents = [...agents, agentRow('writer', String(p.name))];
      return { ok: true, agentId: 'writer', name: p.name, workspace: '/h/writer' };
    },
    'memory.search': () => ({ results: [] }),
  });
}

const chatList = () => within(screen.getByRole('complementary', { name: 'Sessions' }));

describe('the agent switcher', () => {
  it("shows the selected agent's chats only; switching opens the other agent's latest chat", async () => {
    app = agentsApp();
    renderWithStores(app, <ChatView viewport={viewport} />);
    expect(await chatList().findByText('groceries')).toBeTruthy();
    expect(chatList().queryByText('papers')).toBeNull();

    fireEvent.change(screen.getByLabelText('Agent'), { target: { value: 'research' } });
    expect(await chatList().findByText('papers')).toBeTruthy();
    expect(chatList().queryByText('groceries')).toBeNull();
    expect(app.stores.sessions.getState().activeKey).toBe('agent:research:papers');

    // A new chat belongs to the agent on screen.
    fireEvent.click(chatList().getByRole('button', { name: 'New chat' }));
    await waitFor(() => expect(app.gateway.calls('sessions.create').at(-1)).toMatchObject({ agentId: 'research' }));
  });

  it("Memory follows the selected agent: a search asks for that agent's notes", async () => {
    app = agentsApp();
    renderWithStores(app, <ChatView viewport={viewport} />);
    await chatList().findByText('groceries');
    fireEvent.change(screen.getByLabelText('Agent'), { target: { value: 'research' } });
    await waitFor(() =>
      expect(app.gateway.calls('memory.files.list').some((params) => params.agentId === 'research')).toBe(true),
    );
    app.stores.memory.getState().setQuery('transformers');
    await app.stores.memory.getState().search();
    expect(app.gateway.calls('memory.search').at(-1)).toMatchObject({ agentId: 'research', query: 'transformers' });
  });

  it('opening a chat of another agent switches the agent with it', async () => {
    app = agentsApp();
    renderWithStores(app, <ChatView viewport={viewport} />);
    await chatList().findByText('groceries');
    app.stores.sessions.getState().select('agent:research:older');
    await waitFor(() => expect((screen.getByLabelText('Agent') as HTMLSelectElement).value).toBe('research'));
  });

  it('creates an agent and switches to it; a refused name says why and keeps the form', async () => {
    app = agentsApp();
    renderWithStores(app, <ChatView viewport={viewport} />);
    await chatList().findByText('groceries');
    fireEvent.click(screen.getByRole('button', { name: 'New agent' }));
    const form = within(screen.getByRole('form', { name: 'New agent' }));
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'main' } });
    fireEvent.click(form.getByRole('button', { name: 'Create agent' }));
    expect((await screen.findByRole('alert')).textContent).toContain('already exists');
    expect((form.getByLabelText('Name') as HTMLInputElement).value).toBe('main');

    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Writer' } });
    fireEvent.change(form.getByLabelText('Model (optional)'), { target: { value: 'openai/gpt-4o' } });
    fireEvent.click(form.getByRole('button', { name: 'Create agent' }));
    await waitFor(() => expect((screen.getByLabelText('Agent') as HTMLSelectElement).value).toBe('writer'));
    expect(app.gateway.calls('agents.create').at(-1)).toEqual({ name: 'Writer', model: 'openai/gpt-4o' });
    expect(screen.queryByRole('form', { name: 'New agent' })).toBeNull();
    expect(app.stores.sessions.getState().activeKey).toBe('agent:writer:main');
  });
});
