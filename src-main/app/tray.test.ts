import { describe, expect, it } from 'vitest';
import { createTrayController, type TrayActions, type TrayLike, trayMenuTemplate } from './tray.js';

function fakeTray() {
  const calls = {
    toolTips: [] as string[],
    menus: [] as unknown[],
    destroyed: false,
    click: undefined as (() => void) | undefined,
  };
  const tray: TrayLike = {
    setToolTip: (text) => void calls.toolTips.push(text),
    setContextMenu: (menu) => void calls.menus.push(menu),
    on: (_event, listener) => {
      calls.click = listener;
    },
    destroy: () => {
      calls.destroyed = true;
    },
  };
  return { tray, calls };
}

function recordingActions() {
  const done: string[] = [];
  const actions: TrayActions = {
    open: () => done.push('open'),
    togglePause: () => done.push('toggle-pause'),
    revealLogs: () => done.push('reveal-logs'),
    copyDiagnostics: () => done.push('copy-diagnostics'),
    quit: () => done.push('quit'),
  };
  return { actions, done };
}

type Item = { id?: string; label?: string; enabled?: boolean; click?: () => void };

describe('tray', () => {
  it('shows gateway status and the pending approvals count', () => {
    const { actions } = recordingActions();
    const items = trayMenuTemplate({ gatewayUp: true, pendingApprovals: 2, agentPaused: false }, actions) as Item[];
    expect(items.find((i) => i.id === 'status')).toMatchObject({ label: 'Gateway running', enabled: false });
    expect(items.find((i) => i.id === 'approvals')?.label).toBe('2 approvals waiting');
    const idle = trayMenuTemplate({ gatewayUp: false, pendingApprovals: 0, agentPaused: false }, actions) as Item[];
    expect(idle.find((i) => i.id === 'status')?.label).toBe('Gateway stopped');
    expect(idle.find((i) => i.id === 'approvals')).toBeUndefined();
  });

  it('offers open, pause, logs, diagnostics and quit, each wired to its action', () => {
    const { actions, done } = recordingActions();
    const items = trayMenuTemplate({ gatewayUp: true, pendingApprovals: 1, agentPaused: false }, actions) as Item[];
    for (const id of ['open', 'pause', 'reveal-logs', 'copy-diagnostics', 'quit', 'approvals']) {
      items.find((i) => i.id === id)!.click!();
    }
    expect(done).toEqual(['open', 'toggle-pause', 'reveal-logs', 'copy-diagnostics', 'quit', 'open']);
  });

  it('says when the agent is paused and offers Resume; no pausing while the gateway is down', () => {
    const { actions } = recordingActions();
    const paused = trayMenuTemplate({ gatewayUp: true, pendingApprovals: 0, agentPaused: true }, actions) as Item[];
    expect(paused.find((i) => i.id === 'pause')).toMatchObject({ label: 'Resume agent', enabled: true });
    expect(paused.find((i) => i.id === 'status')?.label).toBe('Agent paused: new messages wait for Resume');
    const running = trayMenuTemplate({ gatewayUp: true, pendingApprovals: 0, agentPaused: false }, actions) as Item[];
    expect(running.find((i) => i.id === 'pause')).toMatchObject({ label: 'Pause agent', enabled: true });
    const down = trayMenuTemplate({ gatewayUp: false, pendingApprovals: 0, agentPaused: false }, actions) as Item[];
    expect(down.find((i) => i.id === 'pause')?.enabled).toBe(false);
  });

  it('updates tooltip and menu when the state changes, and only then', () => {
    const { tray, calls } = fakeTray();
    const { actions } = recordingActions();
    const controller = createTrayController({
      createTray: () => tray,
      buildMenu: (t) => t,
      actions,
      clickOpens: false,
    });
    controller.update({ gatewayUp: true });
    controller.update({ gatewayUp: true });
    controller.update({ pendingApprovals: 1 });
    controller.update({ agentPaused: true });
    expect(calls.toolTips).toEqual([
      'Hearth: gateway stopped',
      'Hearth: running',
      'Hearth: running · 1 approval waiting',
      'Hearth: paused · 1 approval waiting',
    ]);
    expect(calls.menus).toHaveLength(4);
    controller.dispose();
    expect(calls.destroyed).toBe(true);
  });

  it('opens the window on click where the platform expects it', () => {
    const { tray, calls } = fakeTray();
    const { actions, done } = recordingActions();
    createTrayController({ createTray: () => tray, buildMenu: (t) => t, actions, clickOpens: true });
    calls.click!();
    expect(done).toEqual(['open']);
  });

  it('names the other machine when the desktop uses its gateway, so Pause says what it pauses', () => {
    const { actions } = recordingActions();
    const state = { gatewayUp: true, pendingApprovals: 0, agentPaused: false, remoteGateway: 'Studio Mac' };
    const items = trayMenuTemplate(state, actions) as Item[];
    expect(items.find((item) => item.id === 'status')?.label).toBe('Gateway running on Studio Mac');
    expect(items.find((item) => item.id === 'pause')?.label).toBe('Pause agent on Studio Mac');
    const paused = trayMenuTemplate({ ...state, agentPaused: true }, actions) as Item[];
    expect(paused.find((item) => item.id === 'pause')?.label).toBe('Resume agent on Studio Mac');
    const down = trayMenuTemplate({ ...state, gatewayUp: false }, actions) as Item[];
    expect(down.find((item) => item.id === 'status')?.label).toBe('Cannot reach Studio Mac');
    expect(down.find((item) => item.id === 'pause')?.enabled).toBe(false);
    const { tray, calls } = fakeTray();
    const controller = createTrayController({
      createTray: () => tray,
      buildMenu: (t) => t,
      actions,
      clickOpens: false,
    });
    controller.update(state);
    expect(calls.toolTips.at(-1)).toBe('Hearth on Studio Mac: running');
  });
});
