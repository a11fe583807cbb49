import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { ApprovalsView } from '../approvals/approvals-view.js';
import { PermissionsView } from '../permissions/permissions-view.js';
import { ToolCallView } from './tool-call-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const NOW = Date.now();

/** An exec request as `exec.approval.list` returns it, graded by the gateway. */
const execRequest = (destructive: boolean) => ({
  id: 'ap1',
  agentId: 'main',
  sessionKey: 'agent:main:main',
  command: destructive ? 'rm -r build' : 'ls -la',
  cwd: '/home/me/project',
  reasons: [{ code: 'allowlist-miss', detail: 'not on the allowlist' }],
  allowedDecisions: ['allow-once', 'allow-always', 'deny'],
  allowSession: true,
  suggested: 'once',
  alwaysScopes: destructive ? ['exact', 'folder'] : ['binary', 'exact', 'folder'],
  allowAlwaysFolder: [{ pattern: '/usr/bin/rm', argPattern: '^-r build$', cwdWithin: '/home/me/project' }],
  risk: destructive
    ? {
        level: 'destructive',
        because: [{ code: 'deletes', detail: 'rm -r deletes folders and everything in them, with no trash' }],
        writes: ['build'],
        network: false,
      }
    : { level: 'safe', because: [], writes: [], network: false },
  createdAtMs: NOW,
  expiresAtMs: NOW + 30 * 60_000,
});

/** The chat's tool call that waits on the request, with the inline card inside it. */
async function inlineCard(request: Record<string, unknown>, resolve: () => unknown = () => ({ ok: true })) {
  app = startTestApp({ 'exec.approval.list': () => [request], 'exec.approval.resolve': resolve });
  renderWithStores(
    app,
    <ToolCallView
      message={{
        id: 'tool-1',
        role: 'tool',
        text: '',
        toolCallId: 'call-1',
        toolName: 'exec',
        toolInput: { command: request.command },
        status: 'streaming',
        approval: 'pending',
        approvalId: 'ap1',
      }}
    />,
  );
  return within(await screen.findByTestId('inline-approval'));
}

describe('inline approval card', () => {
  it('a safe command: what it touches, Allow once focused, A answers it', async () => {
    const card = await inlineCard(execRequest(false));
    expect(card.getByText('ls -la')).toBeTruthy();
    expect(card.getByText('Low risk')).toBeTruthy();
    expect(card.getByText('/home/me/project')).toBeTruthy();
    expect(card.getByTestId('approval-writes').textContent).toBe('no files named');
    const allow = card.getByRole('button', { name: /Allow once/ });
    expect(document.activeElement).toBe(allow);
    expect(card.getByRole('button', { name: /Allow for this chat/ })).toBeTruthy();
    fireEvent.keyDown(allow, { key: 'a' });
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([{ id: 'ap1', decision: 'allow-once' }]),
    );
  });

  it('a destructive command: marked, Deny focused, single keys do not approve, "always" only narrow', async () => {
    const card = await inlineCard(execRequest(true));
    expect(card.getByText('Destructive: cannot be undone')).toBeTruthy();
    expect(card.getByText(/Deny is the default/)).toBeTruthy();
    expect(card.getByText('build')).toBeTruthy();
    const deny = card.getByRole('button', { name: /Deny/ });
    expect(document.activeElement).toBe(deny);
    for (const key of ['a', 'f', 's']) fireEvent.keyDown(deny, { key });
    expect(card.queryByRole('group')).toBeNull();
    expect(app.gateway.calls('exec.approval.resolve')).toEqual([]);

    fireEvent.click(card.getByRole('button', { name: /Always…/ }));
    const choices = within(card.getByRole('group', { name: 'Always allow, but only:' }));
    expect(choices.queryByText('any use of this program')).toBeNull();
    expect(choices.getByRole('button', { name: 'only these exact arguments' })).toBeTruthy();
    fireEvent.click(choices.getByRole('button', { name: 'these exact arguments, only in /home/me/project' }));
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([
        { id: 'ap1', decision: 'allow-always', allowAlwaysScope: 'folder' },
      ]),
    );
  });

  it('D denies a destructive command; a refusal from the gateway shows on the card', async () => {
    const card = await inlineCard(execRequest(true), () => {
      throw new GatewayError('INVALID_REQUEST', 'unknown or expired approval id', { reason: 'APPROVAL_NOT_FOUND' });
    });
    fireEvent.keyDown(card.getByRole('button', { name: /Deny/ }), { key: 'd' });
    expect(await card.findByRole('alert')).toHaveProperty('textContent', 'unknown or expired approval id');
    expect(app.gateway.calls('exec.approval.resolve')).toEqual([{ id: 'ap1', decision: 'deny' }]);
  });

  it('settles in place when the request is resolved elsewhere', async () => {
    await inlineCard(execRequest(false));
    app.gateway.emit('exec.approval.resolved', { id: 'ap1', decision: 'deny', resolvedBy: 'operator:phone', ts: NOW });
    await waitFor(() => expect(screen.queryByTestId('inline-approval')).toBeNull());
  });
});

describe('approvals view: a destructive request', () => {
  it('ignores A / F / S, takes D, and sends a narrow scope for Always', async () => {
    app = startTestApp({
      'exec.approval.list': () => [execRequest(true)],
      'exec.approval.resolve': () => ({ ok: true }),
    });
    renderWithStores(app, <ApprovalsView />);
    const card = within(await screen.findByTestId('approval-card'));
    expect(card.getByText('Destructive: cannot be undone')).toBeTruthy();
    for (const key of ['a', 'f', 's']) fireEvent.keyDown(window, { key });
    expect(app.gateway.calls('exec.approval.resolve')).toEqual([]);
    fireEvent.click(card.getByRole('button', { name: /Always allow/ }));
    await waitFor(() =>
      expect(app.gateway.calls('exec.approval.resolve')).toEqual([
        { id: 'ap1', decision: 'allow-always', allowAlwaysScope: 'exact' },
      ]),
    );
    fireEvent.keyDown(window, { key: 'd' });
    await waitFor(() => expect(app.gateway.calls('exec.approval.resolve')).toHaveLength(2));
    expect(app.gateway.calls('exec.approval.resolve')[1]).toEqual({ id: 'ap1', decision: 'deny' });
  });
});

describe('permissions view: a folder rule', () => {
  it('names the folder it is limited to, and its scope', async () => {
    app = startTestApp({
      'permissions.list': () => ({
        rules: [
          {
            id: 'perm_folder',
            kind: 'exec',
            scope: 'folder',
            agentId: 'main',
            pattern: '/usr/bin/rm',
            argPattern: '^-r build$',
            cwdWithin: '/home/me/project',
            origin: 'operator:hearth-control-ui(c1)',
            example: 'rm -r build',
            addedAtMs: NOW,
          },
        ],
        session: [],
      }),
    });
    renderWithStores(app, <PermissionsView />);
    const rule = within(await screen.findByTestId('permission-rule'));
    expect(rule.getByText('/usr/bin/rm ^-r build$ · /home/me/project')).toBeTruthy();
    expect(rule.getByText('these exact arguments, in one folder')).toBeTruthy();
  });
});
