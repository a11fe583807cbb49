import type { MenuItemConstructorOptions } from 'electron';
import type { Disposable } from '../base/index.js';

export interface TrayState {
  gatewayUp: boolean;
  pendingApprovals: number;
  /** "Pause agent" is on: new turns are refused until Resume (agent.pause). */
  agentPaused: boolean;
  /** The other machine's gateway the desktop uses (Pause acts on it); undefined for this computer's. */
  remoteGateway?: string;
}

export interface TrayActions {
  open(): void;
  /** Pause (or resume, when paused) the agent through the gateway. */
  togglePause(): void;
  revealLogs(): void;
  copyDiagnostics(): void;
  quit(): void;
}

/** The parts of an Electron Tray instance the controller drives. */
export interface TrayLike {
  setToolTip(toolTip: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayDeps<M> {
  createTray(): TrayLike;
  /** `Menu.buildFromTemplate`. */
  buildMenu(template: MenuItemConstructorOptions[]): M;
  actions: TrayActions;
  /** macOS shows the menu on click; Windows/Linux users expect a click to open the window. */
  clickOpens: boolean;
}

export interface TrayController extends Disposable {
  update(change: Partial<TrayState>): void;
  readonly state: TrayState;
}

export function trayToolTip(state: TrayState): string {
  const parts = [state.gatewayUp ? (state.agentPaused ? 'paused' : 'running') : 'gateway stopped'];
  if (state.pendingApprovals > 0) parts.push(approvalsLabel(state.pendingApprovals));
  return `Hearth${state.remoteGateway ? ` on ${state.remoteGateway}` : ''}: ${parts.join(' · ')}`;
}

function approvalsLabel(count: number): string {
  return count === 1 ? '1 approval waiting' : `${count} approvals waiting`;
}

function statusLabel(state: TrayState): string {
  const on = state.remoteGateway ? ` on ${state.remoteGateway}` : '';
  if (!state.gatewayUp) return state.remoteGateway ? `Cannot reach ${state.remoteGateway}` : 'Gateway stopped';
  return state.agentPaused ? `Agent${on} paused: new messages wait for Resume` : `Gateway running${on}`;
}

/** The tray menu for a state: status lines (disabled), then the quick actions. */
export function trayMenuTemplate(state: TrayState, actions: TrayActions): MenuItemConstructorOptions[] {
  const template: MenuItemConstructorOptions[] = [{ id: 'status', label: statusLabel(state), enabled: false }];
  if (state.pendingApprovals > 0) {
    template.push({ id: 'approvals', label: approvalsLabel(state.pendingApprovals), click: () => actions.open() });
  }
  template.push(
    { type: 'separator' },
    { id: 'open', label: 'Open Hearth', click: () => actions.open() },
    // Real pausing (agent.pause): new messages, heartbeats and cron runs are refused until Resume.
    {
      id: 'pause',
      label: `${state.agentPaused ? 'Resume agent' : 'Pause agent'}${state.remoteGateway ? ` on ${state.remoteGateway}` : ''}`,
      enabled: state.gatewayUp,
      click: () => actions.togglePause(),
    },
    { type: 'separator' },
    { id: 'reveal-logs', label: 'Reveal logs', click: () => actions.revealLogs() },
    { id: 'copy-diagnostics', label: 'Copy diagnostics', click: () => actions.copyDiagnostics() },
    { type: 'separator' },
    { id: 'quit', label: 'Quit Hearth', role: 'quit', click: () => actions.quit() },
  );
  return template;
}

/** Rebuilds the menu only when what it shows changed. */
export function createTrayController<M>(deps: TrayDeps<M>): TrayController {
  const tray = deps.createTray();
  let state: TrayState = { gatewayUp: false, pendingApprovals: 0, agentPaused: false };
  let shown = '';
  const render = () => {
    const key = JSON.stringify(state);
    if (key === shown) return;
    shown = key;
    tray.setToolTip(trayToolTip(state));
    tray.setContextMenu(deps.buildMenu(trayMenuTemplate(state, deps.actions)));
  };
  if (deps.clickOpens) tray.on('click', () => deps.actions.open());
  render();
  return {
    get state() {
      return state;
    },
    update(change) {
      state = { ...state, ...change };
      render();
    },
    dispose: () => tray.destroy(),
  };
}
