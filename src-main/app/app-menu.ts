import type { MenuItemConstructorOptions } from 'electron';

export interface AppMenuActions {
  revealLogs(): void;
  copyDiagnostics(): void;
  /** Runs the kept installer of the version this one updated from (after asking). */
  goBack(): void;
}

/**
 * The application menu: Electron's standard roles (so copy/paste, zoom and window
 * shortcuts work as users expect on each OS) plus Help > Reveal logs / Copy
 * diagnostics / Go back to the previous version. No "Toggle Developer Tools" outside development.
 */
export function appMenuTemplate(options: {
  isMac: boolean;
  devTools: boolean;
  actions: AppMenuActions;
}): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (options.devTools) view.push({ type: 'separator' }, { role: 'toggleDevTools' });
  return [
    ...(options.isMac ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { id: 'reveal-logs', label: 'Reveal Logs', click: () => options.actions.revealLogs() },
        { id: 'copy-diagnostics', label: 'Copy Diagnostics', click: () => options.actions.copyDiagnostics() },
        { type: 'separator' },
        { id: 'go-back', label: 'Go Back to the Previous Version…', click: () => options.actions.goBack() },
      ],
    },
  ];
}
