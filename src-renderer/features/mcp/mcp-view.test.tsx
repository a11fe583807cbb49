import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import type { McpServerStatus, McpToolInfo } from '../../../src-main/protocol/methods/mcp.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { McpView } from './mcp-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  app?.dispose();
});

const NOW = 1_700_000_000_000;
const status = (name: string, more: Partial<McpServerStatus> = {}): McpServerStatus => ({
  name,
  transport: 'stdio',
  enabled: true,
  state: 'idle',
  toolCount: 0,
  restarts: 0,
  ...more,
});

const notesTools: McpToolInfo[] = [
  { name: 'notes__search', tool: 'search', description: 'Search the notes by words', access: 'read' },
  { name: 'notes__delete', tool: 'delete', description: 'Delete a note', access: 'dangerous' },
];

/**
 * A scripted gateway holding `mcp.servers` as the hub would: import previews what pasted JSON adds
 * (in the `mcpServers` shape) and writes it with `apply`; a trial test of an entry lists its tools.
 */
function mcpApp() {
  const state = {
    servers: [
      status('files', { state: 'ready', toolCount: 4, connectedAt: NOW }),
      status('docs', {
        transport: 'http',
        state: 'needs_auth',
        oauth: { authorized: false },
        lastError: 'MCP server "docs" needs you to authorize Hearth: run mcp.auth.start {"server":"docs"}',
      }),
      status('broken', { state: 'failed', lastError: 'spawn nope-mcp ENOENT', restarts: 3 }),
    ],
  };
  const plan = (json: string) => {
    const parsed = JSON.parse(json) as { mcpServers: Record<string, Record<string, unknown>> };
    const servers: Record<string, Record<string, unknown>> = {};
    const notes: string[] = [];
    for (const [name, entry] of Object.entries(parsed.mcpServers)) {
      const { autoApprove, ...kept } = entry;
      if (autoApprove !== undefined) notes.push(`server "${name}": "autoApprove" is not used by Hearth`);
      servers[name] = kept;
    }
    return { servers, notes, errors: [] as string[] };
  };
  app = startTestApp({
    'mcp.servers.list': () => ({ servers: state.servers }),
    'mcp.servers.import': (params) => {
      const result = plan(String(params.json));
      const applied = params.apply === true && Object.keys(result.servers).length > 0;
      if (applied)
        for (const [name, entry] of Object.entries(result.servers))
          state.servers.push(status(name, { transport: typeof entry.url === 'string' ? 'http' : 'stdio' }));
      return { ...result, applied };
    },
    'mcp.servers.test': (params) => {
      const name = String(params.name);
      if (!params.server) {
        const server = state.servers.find((s) => s.name === name);
        if (!server) throw new GatewayError('NOT_FOUND', `no MCP server "${name}" in mcp.servers`);
        return { ok: true, server, tools: [] };
      }
      const server = params.server as Record<string, unknown>;
      if (server.command === 'nope-mcp')
        return {
          ok: false,
          server: status(name, { state: 'failed', lastError: 'spawn nope-mcp ENOENT' }),
          tools: [],
          error: 'spawn nope-mcp ENOENT',
        };
      return {
        ok: true,
        server: status(name, { state: 'ready', toolCount: notesTools.length }),
        tools: notesTools.map((tool) => ({ ...tool, name: `${name}__${tool.tool}` })),
      };
    },
    'mcp.auth.start': (params) => ({
      authorized: false,
      authorizationUrl: `https://auth.example.com/authorize?client_id=hearth&state=${String(params.server)}`,
      server: state.servers.find((s) => s.name === params.server),
    }),
  });
  return state;
}

const pasted = JSON.stringify({
  mcpServers: {
    notes: { command: 'npx', args: ['-y', 'notes-mcp'], env: { NOTES_DIR: '/home/me/notes' }, autoApprove: ['search'] },
  },
});

describe('McpView', () => {
  it('lists each configured server with its state, tool count and last error', async () => {
    mcpApp();
    renderWithStores(app, <McpView />);
    const files = within(await screen.findByRole('listitem', { name: 'files' }));
    expect(files.getByTestId('mcp-state').textContent).toBe('connected');
    expect(files.getByText(/4 tools/)).toBeTruthy();
    expect(files.queryByRole('button', { name: 'Authorize' })).toBeNull();
    const broken = within(screen.getByRole('listitem', { name: 'broken' }));
    expect(broken.getByTestId('mcp-state').textContent).toBe('error');
    expect(broken.getByTestId('mcp-error').textContent).toBe('spawn nope-mcp ENOENT');
    expect(broken.getByText(/restarted 3 times/)).toBeTruthy();
    const docs = within(screen.getByRole('listitem', { name: 'docs' }));
    expect(docs.getByTestId('mcp-state').textContent).toBe('needs authorization');
    expect(docs.getByTestId('mcp-error').textContent).toContain('needs you to authorize Hearth');
  });

  it('needs_auth: Authorize asks mcp.auth.start and opens the URL it answers', async () => {
    mcpApp();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderWithStores(app, <McpView />);
    const docs = within(await screen.findByRole('listitem', { name: 'docs' }));
    fireEvent.click(docs.getByRole('button', { name: 'Authorize' }));
    await waitFor(() => expect(app.gateway.calls('mcp.auth.start')).toEqual([{ server: 'docs' }]));
    const url = 'https://auth.example.com/authorize?client_id=hearth&state=docs';
    await waitFor(() => expect(open).toHaveBeenCalledWith(url, '_blank', 'noopener'));
    // A blocked pop-up still leaves the way there.
    expect(docs.getByRole('link', { name: 'Open the authorization page' }).getAttribute('href')).toBe(url);
  });

  it('pasted mcpServers JSON: test shows the tools it offers, then Add imports it as pasted', async () => {
    const state = mcpApp();
    renderWithStores(app, <McpView />);
    const add = within(await screen.findByRole('region', { name: 'Add server' }));
    fireEvent.change(add.getByLabelText('JSON'), { target: { value: pasted } });
    expect(add.getByTestId('mcp-found').textContent).toBe('Servers in this JSON: notes');
    fireEvent.click(add.getByRole('button', { name: 'Test connection' }));

    const entry = within(await add.findByRole('listitem', { name: 'Server notes' }));
    expect(app.gateway.calls('mcp.servers.import')).toEqual([{ json: pasted }]);
    expect(add.getByTestId('mcp-import-note').textContent).toBe('server "notes": "autoApprove" is not used by Hearth');
    expect((await entry.findByTestId('mcp-test-result')).textContent).toBe('Connected: 2 tools.');
    expect(app.gateway.calls('mcp.servers.test')).toEqual([
      { name: 'notes', server: { command: 'npx', args: ['-y', 'notes-mcp'], env: { NOTES_DIR: '/home/me/notes' } } },
    ]);
    const tools = entry.getAllByTestId('mcp-tool').map((tool) => tool.textContent);
    expect(tools).toEqual(['searchread-onlySearch the notes by words', 'deletedestructive (asks first)Delete a note']);
    expect(state.servers.map((s) => s.name)).not.toContain('notes');

    fireEvent.click(add.getByRole('button', { name: 'Add' }));
    expect((await add.findByRole('status')).textContent).toBe('Added to hearth.json: notes.');
    expect(app.gateway.calls('mcp.servers.import')[1]).toEqual({ json: pasted, apply: true });
    const notes = within(await screen.findByRole('listitem', { name: 'notes' }));
    expect(notes.getByTestId('mcp-state').textContent).toBe('idle');
  });

  it('refuses JSON that does not parse with the parser’s reason, sends nothing and keeps the text', async () => {
    mcpApp();
    renderWithStores(app, <McpView />);
    const add = within(await screen.findByRole('region', { name: 'Add server' }));
    const text = '{ "mcpServers": { "notes": { "command": "npx", } } }';
    fireEvent.change(add.getByLabelText('JSON'), { target: { value: text } });
    fireEvent.click(add.getByRole('button', { name: 'Test connection' }));
    const alert = await add.findByRole('alert');
    let reason = '';
    try {
      JSON.parse(text);
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(alert.textContent).toBe(`Not valid JSON: ${reason}`);
    fireEvent.click(add.getByRole('button', { name: 'Add' }));
    expect(add.getByRole('alert').textContent).toContain('Not valid JSON');
    expect(app.gateway.calls('mcp.servers.import')).toEqual([]);
    expect(app.gateway.calls('mcp.servers.test')).toEqual([]);
    expect((add.getByLabelText('JSON') as HTMLTextAreaElement).value).toBe(text);
  });

  it('a single server object is added under the name given; a command whose test fails shows why', async () => {
    mcpApp();
    renderWithStores(app, <McpView />);
    const add = within(await screen.findByRole('region', { name: 'Add server' }));
    fireEvent.change(add.getByLabelText('JSON'), {
      target: { value: '{ "command": "npx", "args": ["-y", "@acme/notes-mcp@1.2.0"] }' },
    });
    expect((add.getByLabelText('Name') as HTMLInputElement).placeholder).toBe('notes');
    fireEvent.change(add.getByLabelText('Name'), { target: { value: 'acme' } });
    fireEvent.click(add.getByRole('button', { name: 'Test connection' }));
    await add.findByRole('listitem', { name: 'Server acme' });
    expect(JSON.parse(String(app.gateway.calls('mcp.servers.import')[0]?.json))).toEqual({
      mcpServers: { acme: { command: 'npx', args: ['-y', '@acme/notes-mcp@1.2.0'] } },
    });

    fireEvent.click(add.getByRole('tab', { name: 'Command' }));
    fireEvent.change(add.getByLabelText('Program to run'), { target: { value: 'nope-mcp' } });
    fireEvent.change(add.getByLabelText(/Environment/), { target: { value: 'TOKEN' } });
    fireEvent.click(add.getByRole('button', { name: 'Test connection' }));
    expect((await add.findByRole('alert')).textContent).toBe('Environment line "TOKEN" is not KEY=value.');
    fireEvent.change(add.getByLabelText(/Environment/), { target: { value: 'TOKEN=abc' } });
    fireEvent.click(add.getByRole('button', { name: 'Test connection' }));
    const entry = within(await add.findByRole('listitem', { name: 'Server nope' }));
    expect((await entry.findByTestId('mcp-test-result')).textContent).toBe('Not connected: spawn nope-mcp ENOENT');
    expect(app.gateway.calls('mcp.servers.test').at(-1)).toEqual({
      name: 'nope',
      server: { command: 'nope-mcp', env: { TOKEN: 'abc' } },
    });
    expect((add.getByLabelText('Program to run') as HTMLInputElement).value).toBe('nope-mcp');
  });

  it('refreshes on mcp.servers.changed', async () => {
    const state = mcpApp();
    renderWithStores(app, <McpView />);
    const docs = within(await screen.findByRole('listitem', { name: 'docs' }));
    state.servers[1] = { ...state.servers[1]!, state: 'ready', toolCount: 2, oauth: { authorized: true } };
    state.servers[1].lastError = undefined;
    app.gateway.emit('mcp.servers.changed', { server: state.servers[1] });
    await waitFor(() => expect(docs.getByTestId('mcp-state').textContent).toBe('connected'));
    expect(docs.queryByRole('button', { name: 'Authorize' })).toBeNull();
    expect(docs.getByRole('button', { name: 'Forget authorization' })).toBeTruthy();
  });
});
