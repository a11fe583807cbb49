import type { BrowserWindowConstructorOptions } from 'electron';

export interface MainWindowOptionsInput {
  /** Absolute path of the compiled preload (dist/src-preload/index.js). */
  preloadPath: string;
  /** Window icon (Linux/Windows; macOS takes the bundle icon). */
  iconPath?: string;
  /** Handed to the preload on its command line (the sandbox has no `app.getVersion()`). */
  appVersion: string;
  /** The gateway's HTTP origin, for the canvas iframe (also handed to the preload). */
  gatewayUrl?: string;
  /** Electron's dev tools are only reachable in development. */
  devTools: boolean;
}

/**
 * The renderer is treated as untrusted web content: isolated world, OS sandbox, no
 * Node. The only way out is the preload's frame forwarder (src-preload/index.ts).
 */
export function mainWindowOptions(input: MainWindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'Hearth',
    // Shown on 'ready-to-show' so the user never sees a white flash.
    show: false,
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: secureWebPreferences(input),
  };
}

/**
 * One definition for every window that loads the Control UI (the main window and the
 * quick-ask composer): the page is the same untrusted web content whatever its route.
 */
export function secureWebPreferences(
  input: Omit<MainWindowOptionsInput, 'iconPath'>,
): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    preload: input.preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: true,
    devTools: input.devTools,
    // Read by src-preload (versionFromArgv); keep the flag name in sync.
    additionalArguments: [
      `--hearth-version=${input.appVersion}`,
      ...(input.gatewayUrl ? [`--hearth-gateway-url=${input.gatewayUrl}`] : []),
    ],
  };
}

/** The parts of a BrowserWindow the shell drives. */
export interface ShellWindow {
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isVisible(): boolean;
  isDestroyed(): boolean;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  loadURL(url: string): Promise<void>;
}

/** Brings the window to the front, from hidden, minimised or behind other windows. */
export function summonWindow(window: ShellWindow): void {
  if (window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
}

/**
 * Closing the window hides it: Hearth keeps running in the tray so approvals,
 * cron jobs and channels continue. Only an explicit quit closes it for real.
 */
export function hideOnClose(window: ShellWindow, isQuitting: () => boolean): void {
  window.on('close', (event) => {
    if (isQuitting()) return;
    event.preventDefault();
    window.hide();
  });
}

export function showWhenReady(window: ShellWindow, startHidden: boolean): void {
  window.once('ready-to-show', () => {
    if (!startHidden) window.show();
  });
}
