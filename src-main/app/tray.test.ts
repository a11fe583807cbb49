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
    const items = trayMenuTemplate({ gatewayUp: true, pendingApprovals: 2 }, actions) as Item[];
    expect(items.find((i) => i.id === 'status')).toMatchObject({ label: 'Gateway running', enabled: false });
    expect(items.find((i) => i.id === 'approvals')?.label).toBe('2 approvals waiting');
    const idle = trayMenuTemplate({ gatewayUp: false, pendingApprovals: 0 }, actions) as Item[];
    expect(idle.find((i) => i.id === 'status')?.label).toBe('Gateway stopped');
    expect(idle.find((i) => i.id === 'approvals')).toBeUndefined();
  });

  it('offers open, logs, diagnostics and quit, each wired to its action (no pause until pausing is real)', () => {
    const { actions, done } = recordingActions();
    const items = trayMenuTemplate({ gatewayUp: true, pendingApprovals: 1 }, actions) as Item[];
    expect(items.find((i) => i.id === 'pause')).toBeUndefined();
    for (const id of ['open', 'reveal-logs', 'copy-diagnostics', 'quit', 'approvals']) {
      items.find((i) => i.id === id)!.click!();
    }
    expect(done).toEqual(['open', 'reveal-logs', 'copy-diagnostics', 'quit', 'open']);
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
    expect(calls.toolTips).toEqual([
      'Hearth: gateway stopped',
      'Hearth: running',
      'Hearth: running · 1 approval waiting',
    ]);
    expect(calls.menus).toHaveLength(3);
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
});
