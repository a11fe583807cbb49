import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { AgentsView } from './agents-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const row = (id: string, name = id) => ({
  id,
  kind: 'agent',
  name,
  workspace: `/h/workspace-${id}`,
  model: { primary: null, fallbacks: [] },
});
const details = (agentId: string, name: string, extra: Record<string, unknown> = {}) => ({
  agentId,
  name,
  workspace: `/h/workspace-${agentId}`,
  fallbacks: [],
  engine: 'hearth',
  bindings: [],
  isDefault: agentId === 'main',
  ...extra,
});

/** A gateway with `main` and whatever the test creates; agents.get answers from what was saved. */
function agentsApp() {
  const saved = new Map<string, Record<string, unknown>>([['main', details('main', 'main')]]);
  let rows = [row('main')];
  const files = new Map<string, string>([['main/SOUL.md', '# Soul\nBe kind.\n']]);
  return startTestApp({
    'agents.list': () => ({ defaultId: 'main', mainKey: 'main', scope: 'per-sender', agents: rows }),
    'models.list': () => ({
      models: [
        { id: 'openai/gpt-4o', name: 'GPT-4o', provider: 'openai', available: true },
        { id: 'openai/gpt-4o-mini', name: 'GPT-4o mini', provider: 'openai', available: true },
      ],
      fallbacks: [],
    }),
    'agents.create': (p) => {
      if (p.name === 'Main') throw new GatewayError('INVALID_REQUEST', 'an agent "main" already exists');
      const id = String(p.name).toLowerCase().replace(/\s+/g, '-');
      rows = [...rows, row(id, String(p.name))];
      saved.set(id, details(id, String(p.name)));
      return { ok: true, agentId: id, name: p.name, workspace: `/h/workspace-${id}` };
    },
    'agents.get': (p) => {
      const agent = saved.get(String(p.agentId));
      if (!agent) throw new GatewayError('NOT_FOUND', `no agent "${String(p.agentId)}"`);
      return agent;
    },
    'agents.update': (p) => {
      const { agentId, ...edits } = p as Record<string, unknown> & { agentId: string };
      if (edits.engine === 'nope') throw new GatewayError('INVALID_REQUEST', 'engine: bad');
      const current = saved.get(agentId)!;
      const engine = edits.engine;
      saved.set(agentId, {
        ...current,
        ...edits,
        ...(edits.model === null ? { model: undefined } : {}),
        ...(edits.memoryScope === null ? { memoryScope: undefined } : {}),
        ...(edits.exec === null ? { exec: undefined } : {}),
        engine,
      });
      return { ok: true, agentId };
    },
    'agents.delete': (p) => {
      rows = rows.filter((r) => r.id !== p.agentId);
      saved.delete(String(p.agentId));
      return { ok: true, agentId: p.agentId, removedBindings: 0, removedFiles: [] };
    },
    'agents.files.get': (p) => ({
      agentId: p.agentId,
      workspace: `/h/workspace-${String(p.agentId)}`,
      file: {
        name: p.name,
        path: `/h/${String(p.name)}`,
        missing: false,
        content: files.get(`${String(p.agentId)}/${String(p.name)}`) ?? '',
      },
    }),
    'agents.files.set': (p) => {
      files.set(`${String(p.agentId)}/${String(p.name)}`, String(p.content));
      return { ok: true, agentId: p.agentId, workspace: '/h', file: { name: p.name, path: '/h', missing: false } };
    },
  });
}

describe('the Agents view', () => {
  it('creates an agent from "New agent", "Name" and "Create", and opens it', async () => {
    app = agentsApp();
    renderWithStores(app, <AgentsView />);
    fireEvent.click(await screen.findByRole('button', { name: 'New agent' }));
    const form = within(screen.getByRole('form', { name: 'New agent' }));
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Research Bot' } });
    fireEvent.change(form.getByLabelText('Model'), { target: { value: 'openai/gpt-4o' } });
    fireEvent.change(form.getByLabelText('Engine'), { target: { value: 'claude-code' } });
    fireEvent.change(form.getByLabelText('Memory scope'), { target: { value: 'per-user' } });
    fireEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(app.gateway.calls('agents.create')).toHaveLength(1));
    expect(app.gateway.calls('agents.create')[0]).toMatchObject({
      name: 'Research Bot',
      model: 'openai/gpt-4o',
      engine: { cli: 'claude-code' },
      memoryScope: 'per-user',
      bindings: [],
    });
    // The new agent is selected and its editor shows.
    expect(await screen.findByRole('heading', { name: 'Research Bot' })).toBeTruthy();
    expect(app.stores.agents.getState().selected).toBe('research-bot');
  });

  it('shows the gateway’s reason when a create is refused', async () => {
    app = agentsApp();
    renderWithStores(app, <AgentsView />);
    fireEvent.click(await screen.findByRole('button', { name: 'New agent' }));
    const form = within(screen.getByRole('form', { name: 'New agent' }));
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Main' } });
    fireEvent.click(form.getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toContain('an agent "main" already exists');
  });

  it('edits model, fallbacks, tool profile, exec policy and a binding, and saves them', async () => {
    app = agentsApp();
    renderWithStores(app, <AgentsView />);
    const form = within(await screen.findByRole('form', { name: 'Edit main' }));
    fireEvent.change(form.getByLabelText('Model'), { target: { value: 'openai/gpt-4o' } });
    fireEvent.click(await form.findByRole('button', { name: 'Add a fallback' }));
    fireEvent.change(form.getByLabelText('Fallback 1'), { target: { value: 'openai/gpt-4o-mini' } });
    fireEvent.change(form.getByLabelText('Tool profile'), { target: { value: 'minimal' } });
    fireEvent.change(form.getByLabelText('Commands (exec security)'), { target: { value: 'deny' } });
    fireEvent.click(form.getByRole('button', { name: 'Add a channel' }));
    fireEvent.change(form.getByLabelText('Channel'), { target: { value: 'telegram' } });
    fireEvent.change(form.getByLabelText('Chat id (optional)'), { target: { value: '42' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(app.gateway.calls('agents.update')).toHaveLength(1));
    // Only what changed is sent.
    expect(app.gateway.calls('agents.update')[0]).toEqual({
      agentId: 'main',
      model: 'openai/gpt-4o',
      fallbacks: ['openai/gpt-4o-mini'],
      toolProfile: 'minimal',
      exec: { security: 'deny' },
      bindings: [{ channel: 'telegram', peer: { kind: 'direct', id: '42' } }],
    });
    expect(await screen.findByText('Saved.')).toBeTruthy();
  });

  it('never rewrites what the form cannot show whole: renaming keeps a hand-set engine command', async () => {
    app = agentsApp();
    renderWithStores(app, <AgentsView />);
    await screen.findByRole('form', { name: 'Edit main' });
    // Someone gave main a CLI engine by hand (its command is not in the form).
    await app.stores.agents.getState().update('main', { engine: { cli: 'codex', command: 'my-codex' } });
    app.stores.agents.getState().select('main');
    cleanup();
    renderWithStores(app, <AgentsView />);
    const form = within(await screen.findByRole('form', { name: 'Edit main' }));
    await waitFor(() => expect((form.getByLabelText('Engine') as HTMLSelectElement).value).toBe('codex'));
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Main Agent' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(app.gateway.calls('agents.update')).toHaveLength(2));
    expect(app.gateway.calls('agents.update')[1]).toEqual({ agentId: 'main', name: 'Main Agent' });
  });

  it('edits a persona file and saves it', async () => {
    app = agentsApp();
    renderWithStores(app, <AgentsView />);
    const soul = (await screen.findByLabelText('SOUL.md')) as HTMLTextAreaElement;
    await waitFor(() => expect(soul.value).toContain('Be kind.'));
    fireEvent.change(soul, { target: { value: '# Soul\nBe brief.\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save SOUL.md' }));
    await waitFor(() =>
      expect(app.gateway.calls('agents.files.set')).toEqual([
        { agentId: 'main', name: 'SOUL.md', content: '# Soul\nBe brief.\n' },
      ]),
    );
    fireEvent.click(screen.getByRole('tab', { name: 'USER.md' }));
    await waitFor(() =>
      expect(app.gateway.calls('agents.files.get')).toContainEqual({ agentId: 'main', name: 'USER.md' }),
    );
  });

  it('asks before deleting, says the workspace stays, and keeps it unless asked', async () => {
    app = agentsApp();
    renderWithStores(app, <AgentsView />);
    fireEvent.click(await screen.findByRole('button', { name: 'New agent' }));
    const form = within(screen.getByRole('form', { name: 'New agent' }));
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'Temp' } });
    fireEvent.click(form.getByRole('button', { name: 'Create' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete agent…' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Delete Temp?' }));
    expect(dialog.getByText(/Its workspace \(\/h\/workspace-temp\), chats and memory stay on disk/)).toBeTruthy();
    expect(app.gateway.calls('agents.delete')).toEqual([]);
    fireEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.gateway.calls('agents.delete')).toEqual([{ agentId: 'temp', deleteFiles: false }]));
    expect((await screen.findByRole('status')).textContent).toContain('Its files stay in /h/workspace-temp');
    expect(screen.queryByRole('button', { name: 'Temp (temp)' })).toBeNull();
  });
});

describe('reaching the Agents view', () => {
  it('opens from the agent switcher', async () => {
    const { AgentSwitcher } = await import('./agent-switcher.js');
    app = agentsApp();
    renderWithStores(app, <AgentSwitcher onSwitch={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Manage agents' }));
    expect(app.stores.ui.getState().view).toBe('agents');
  });
});
