import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import type { PermissionRuleView, SessionGrantView } from '../../../src-main/protocol/methods/permissions.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { PermissionsView } from './permissions-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

/** A scripted gateway holding rules and session grants, as permissions.* would. */
function permissionsApp() {
  const state = {
    rules: [
      {
        id: 'perm_exec',
        kind: 'exec',
        scope: 'binary',
        agentId: 'main',
        pattern: '/usr/bin/make',
        origin: 'operator:hearth-control-ui(c1)',
        example: 'make test',
        addedAtMs: 1_700_000_000_000,
      },
      {
        id: 'perm_mcp',
        kind: 'mcp',
        scope: 'server',
        agentId: 'main',
        server: 'github',
        origin: 'prompter:desktop',
        addedAtMs: 1_700_000_000_000,
        expiresAtMs: 1_800_000_000_000,
      },
    ] as PermissionRuleView[],
    session: [
      {
        id: 'session_1',
        agentId: 'main',
        sessionKey: 'agent:main:main',
        kind: 'file',
        tool: 'read',
        args: '/etc/hosts',
        origin: 'operator:hearth-control-ui(c1)',
        grantedAtMs: 1_700_000_000_000,
      },
    ] as SessionGrantView[],
  };
  app = startTestApp({
    'permissions.list': () => ({ rules: state.rules, session: state.session }),
    'permissions.revoke': (params) => {
      const rule = state.rules.find((r) => r.id === params.id);
      const grant = state.session.find((g) => g.id === params.id);
      if (!rule && !grant)
        throw new GatewayError('NOT_FOUND', `no permission rule ${String(params.id)}`, {
          reason: 'PERMISSION_NOT_FOUND',
        });
      state.rules = state.rules.filter((r) => r.id !== params.id);
      state.session = state.session.filter((g) => g.id !== params.id);
      return { revoked: rule ?? grant };
    },
  });
  return state;
}

describe('PermissionsView', () => {
  it('lists every "always" rule with its scope, origin and expiry, and the session answers', async () => {
    permissionsApp();
    renderWithStores(app, <PermissionsView />);
    const make = within(await screen.findByRole('listitem', { name: '/usr/bin/make' }));
    expect(make.getByText('Command')).toBeTruthy();
    expect(make.getByText('any use of the program')).toBeTruthy();
    expect(make.getByText(/Control UI/)).toBeTruthy();
    expect(make.getByText('no end')).toBeTruthy();
    expect(make.getByText('make test')).toBeTruthy();
    const github = within(screen.getByRole('listitem', { name: 'github' }));
    expect(github.getByText('every tool of the server')).toBeTruthy();
    expect(github.queryByText('no end')).toBeNull();
    const session = within(screen.getByRole('region', { name: 'Allowed for a session' }));
    const grant = within(session.getByRole('listitem', { name: 'read /etc/hosts' }));
    expect(grant.getByText('Main')).toBeTruthy();
  });

  it('revokes a rule: it leaves the list and the gateway was asked for that id', async () => {
    const state = permissionsApp();
    renderWithStores(app, <PermissionsView />);
    const make = within(await screen.findByRole('listitem', { name: '/usr/bin/make' }));
    fireEvent.click(make.getByRole('button', { name: 'Revoke /usr/bin/make' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: '/usr/bin/make' })).toBeNull());
    expect(app.gateway.calls('permissions.revoke')).toEqual([{ id: 'perm_exec' }]);
    expect(state.rules.map((r) => r.id)).toEqual(['perm_mcp']);
    expect((await screen.findByRole('status')).textContent).toContain('Revoked perm_exec');
  });

  it('shows the gateway error when a rule is already gone', async () => {
    const state = permissionsApp();
    renderWithStores(app, <PermissionsView />);
    const github = within(await screen.findByRole('listitem', { name: 'github' }));
    state.rules = state.rules.filter((r) => r.id !== 'perm_mcp');
    fireEvent.click(github.getByRole('button', { name: 'Revoke github' }));
    expect((await screen.findByRole('alert')).textContent).toContain('no permission rule perm_mcp');
    // The list is read again, so the stale row goes away.
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'github' })).toBeNull());
  });

  it('says so when nothing is allowed', async () => {
    const state = permissionsApp();
    state.rules = [];
    state.session = [];
    renderWithStores(app, <PermissionsView />);
    expect(await screen.findByText('Nothing is allowed always.')).toBeTruthy();
    expect(screen.getByText('Nothing is allowed for a session.')).toBeTruthy();
  });
});
