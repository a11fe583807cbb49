import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { ApprovalsView } from './approvals-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const NOW = 1_700_000_000_000;

/** A pending request as `exec.approval.list` returns it, for a tool (`subject`) or a command. */
const pending = (more: Record<string, unknown>) => ({
  id: 'ap1',
  agentId: 'main',
  sessionKey: 'agent:main:main',
  command: `mcp github__create_issue '{"title":"bug"}'`,
  cwd: '/home/me/project',
  reasons: [{ code: 'mcp-write', detail: 'MCP server "github": create_issue may change things' }],
  allowedDecisions: ['allow-once', 'allow-always', 'deny'],
  allowSession: true,
  suggested: 'once',
  alwaysScopes: ['tool', 'server', 'exact'],
  subject: { kind: 'mcp', tool: 'github__create_issue', server: 'github', args: '{"title":"bug"}', access: 'write' },
  createdAtMs: NOW,
  expiresAtMs: NOW + 120_000,
  ...more,
});

function approvalsApp(request: Record<string, unknown>) {
  app = startTestApp({ 'exec.approval.list': () => [request], 'exec.approval.resolve': () => ({ ok: true }) });
  renderWithStores(app, <ApprovalsView />);
}

describe('approval card: the remembered answers', () => {
  it('offers "Allow for this session" beside allow once, and sends it', async () => {
    approvalsApp(pending({}));
    const card = within(await screen.findByTestId('approval-card'));
    expect(card.getByText('Tool call: github__create_issue')).toBeTruthy();
    fireEvent.click(card.getByRole('button', { name: /Allow for this session/ }));
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([{ id: 'ap1', decision: 'allow-session' }]),
    );
  });

  it('"always" for a tool takes the scope the person picks and an optional last day', async () => {
    approvalsApp(pending({ waiting: 2 }));
    const card = within(await screen.findByTestId('approval-card'));
    expect(card.getByText('2 identical calls wait')).toBeTruthy();
    fireEvent.change(card.getByLabelText('Always allow:'), { target: { value: 'server' } });
    fireEvent.change(card.getByLabelText('Until (optional):'), { target: { value: '2027-01-31' } });
    fireEvent.click(card.getByRole('button', { name: /Always allow/ }));
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([
        { id: 'ap1', decision: 'allow-always', allowAlwaysScope: 'server', until: '2027-01-31' },
      ]),
    );
  });

  it('a read-only request puts "for this session" first, on key A', async () => {
    approvalsApp(
      pending({
        command: "read '/etc/hosts'",
        suggested: 'session',
        alwaysScopes: ['exact'],
        subject: { kind: 'file', tool: 'read', args: '/etc/hosts', access: 'read' },
      }),
    );
    const card = within(await screen.findByTestId('approval-card'));
    expect(card.queryByRole('button', { name: /Allow once/ })).toBeNull();
    fireEvent.keyDown(window, { key: 'a' });
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([{ id: 'ap1', decision: 'allow-session' }]),
    );
  });

  it('a destructive tool offers neither session nor always', async () => {
    approvalsApp(pending({ allowedDecisions: ['allow-once', 'deny'], allowSession: false, alwaysScopes: undefined }));
    const card = within(await screen.findByTestId('approval-card'));
    expect(card.queryByRole('button', { name: /for this session/ })).toBeNull();
    expect(card.queryByRole('button', { name: /Always allow/ })).toBeNull();
    expect(card.getByRole('button', { name: /Allow once/ })).toBeTruthy();
  });
});
