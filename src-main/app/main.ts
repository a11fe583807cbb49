// The Electron entry: the only file that loads the real `electron` module. It
// wires the shell's parts (each a factory taking the Electron APIs it uses) around
// the same core `hearth gateway run` starts. No logic of its own lives here.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  globalShortcut,
  ipcMain,
  Menu,
  Notification,
  powerMonitor,
  protocol,
  safeStorage,
  session,
  shell,
  Tray,
} from 'electron';
import { DisposableStore, systemClock } from '../base/index.js';
import type { ApprovalPrompter } from '../exec/index.js';
import type { HearthHost } from '../host/hearth-host.js';
import { type StartHearthOptions, startHearth } from '../host/start-hearth.js';
import { createHearthPaths, resolveHearthHome } from '../paths/index.js';
import type { SecretStore } from '../secrets/index.js';
import { appMenuTemplate } from './app-menu.js';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, isSameOrigin, originOf } from './app-origin.js';
import { appSchemePrivileges, createAppProtocolHandler } from './app-protocol.js';
import { createNativeApprovalPrompter } from './approval-dialog.js';
import { hideOnClose, mainWindowOptions, secureWebPreferences, showWhenReady, summonWindow } from './create-window.js';
import { buildContentSecurityPolicy, installContentSecurityPolicy } from './csp.js';
import { openDesktopSecretStore } from './desktop-secret-store.js';
import { followSelectedGateway, type SelectedGateway } from './follow-gateway.js';
import { DEFAULT_QUICK_ASK_SHORTCUT, DEFAULT_SUMMON_SHORTCUT, registerGlobalShortcut } from './global-shortcut.js';
import { createIpcBridge } from './ipc-bridge.js';
import { keptInstallers } from './kept-installers.js';
import { launchedAtLogin } from './launch-at-login.js';
import { createFileLogger, createLogActions, formatDiagnostics, mainLogPath } from './logs.js';
import { guardNavigation } from './navigation-guard.js';
import { createNotifier } from './notifications.js';
import { denyPermissionsByDefault } from './permissions.js';
import { createQuickAsk, QUICK_ASK_ROUTE, quickAskWindowOptions } from './quick-ask-window.js';
import { promptRemoteApprovals } from './remote-approvals.js';
import { RemoteGatewayIdentity } from './remote-gateway-identity.js';
import { serveGatewaysIpc } from './remote-gateway-ipc.js';
import { createGatewaySwitch } from './remote-gateway-switch.js';
import { notifyFinishedRuns } from './run-notifications.js';
import { createShellClient } from './shell-client.js';
import { createShellLanguage } from './shell-language.js';
import { installCleanShutdown } from './shutdown.js';
import { claimSingleInstance, routeForDeepLink } from './single-instance.js';
import { createTrayController } from './tray.js';
import { type AppUpdaterLike, goBackToPreviousVersion, restartPromptOptions, startAutoUpdates } from './updater.js';
import { wakeOnResume } from './wake-on-resume.js';

/**
 * What the desktop hands the core beyond the CLI's options: its native approval
 * prompter and its choice of secret store. Extra fields until start-hearth declares them.
 */
type DesktopStartOptions = StartHearthOptions & { approvalPrompters?: ApprovalPrompter[]; secretStore?: SecretStore };

// The edge: the only reads of the environment and command line.
const env = process.env;
const argv = process.argv;
const devRendererUrl = app.isPackaged ? undefined : env.HEARTH_RENDERER_URL;
const rendererOrigin = devRendererUrl ? (originOf(devRendererUrl) ?? APP_ORIGIN) : APP_ORIGIN;
// dist/src-main/app/main.js → the app root (the package folder, or app.asar), however Electron was started.
const appRoot = fileURLToPath(new URL('../../../', import.meta.url));
const resource = (...parts: string[]) => join(appRoot, ...parts);

protocol.registerSchemesAsPrivileged([appSchemePrivileges]);
const logFile = mainLogPath(app.getPath('logs'));
let knownSecrets: string[] = [];
const logger = createFileLogger(logFile, () => knownSecrets);

let window: BrowserWindow | undefined;
let host: HearthHost | undefined;
let secretBackend: string | undefined;
let pageReady = false;
const pendingRoutes: string[] = [];
const parts = new DisposableStore();

const summon = () => {
  if (window) summonWindow(window);
};
/** Attached to the window when there is one: on macOS a parentless box blocks the main process (and the gateway). */
const messageBox = (options: Electron.MessageBoxOptions) => {
  if (!window || window.isDestroyed()) return dialog.showMessageBox(options);
  summon();
  return dialog.showMessageBox(window, options);
};
const openRoute = (route: string) => {
  if (!window || !pageReady) {
    pendingRoutes.push(route);
    return;
  }
  summon();
  void window.webContents.executeJavaScript(`location.hash = ${JSON.stringify(route)}`);
};

const instance = claimSingleInstance(app, {
  argv,
  focus: summon,
  openLink: (link) => openRoute(routeForDeepLink(link)),
  badLink: (message) =>
    void messageBox({
      type: 'error',
      title: 'Cannot open link',
      message: 'Hearth cannot open this link.',
      detail: message,
    }),
  now: () => systemClock.now(),
  logger,
});

const shutdown = installCleanShutdown(app, {
  dispose: async () => {
    parts.dispose();
    await host?.dispose();
    await logger.flush();
  },
  timeoutMs: 15_000,
  clock: systemClock,
  logger,
});

const logActions = createLogActions({
  logFile,
  showItemInFolder: (path) => shell.showItemInFolder(path),
  writeClipboard: (text) => clipboard.writeText(text),
  diagnostics: (logTail) =>
    formatDiagnostics({
      appVersion: app.getVersion(),
      versions: { electron: process.versions.electron, chrome: process.versions.chrome, node: process.versions.node },
      platform: process.platform,
      arch: process.arch,
      gatewayUrl: host?.url,
      secretBackend,
      logTail,
      knownSecrets,
    }),
});

async function start(): Promise<void> {
  const paths = createHearthPaths(resolveHearthHome(env));
  const secrets = await openDesktopSecretStore({ paths, log: logger, env, safeStorage });
  secretBackend = secrets.store.backend;
  const rendererDir = resource('dist', 'renderer');
  // Some Linux desktops have no notification daemon: then notifications are skipped, nothing breaks.
  const notifier = createNotifier(Notification, logger);
  // The native box and notifications speak the language chosen in Settings (the window says which).
  const language = parts.add(
    createShellLanguage({
      ipcMain,
      appOrigin: rendererOrigin,
      systemLanguages: app.getPreferredSystemLanguages(),
      logger,
    }),
  );
  let inUse: SelectedGateway = { id: 'local' };
  const prompter = createNativeApprovalPrompter<BrowserWindow>({
    showMessageBox: (parent, options) =>
      parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options),
    visibleWindow: () => (window?.isVisible() ? window : undefined),
    // macOS runs parentless message boxes synchronously: bring the window up and attach instead.
    revealWindow:
      process.platform === 'darwin'
        ? () => {
            summon();
            return window && !window.isDestroyed() ? window : undefined;
          }
        : undefined,
    notifier,
    windowFocused: () => BrowserWindow.getFocusedWindow() !== null,
    summon,
    words: language.words,
    // While another machine's gateway is in use, this computer's own requests say so.
    localGatewayLabel: () => (inUse.remoteName ? language.words().thisComputer : undefined),
    clock: systemClock,
    logger,
  });
  const startOptions: DesktopStartOptions = {
    home: paths.home,
    log: logger.child({ part: 'host' }),
    controlUiDir: rendererDir,
    env,
    approvalPrompters: [prompter],
    secretStore: secrets.store,
  };
  host = await startHearth(startOptions);
  knownSecrets = [host.token];
  const started = host;

  const csp = buildContentSecurityPolicy({
    gatewayOrigin: originOf(started.url),
    devServerOrigin: devRendererUrl ? rendererOrigin : undefined,
  });
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rendererDir, contentSecurityPolicy: csp }));
  installContentSecurityPolicy(session.defaultSession.webRequest, csp, (url) => isSameOrigin(url, rendererOrigin));
  denyPermissionsByDefault(session.defaultSession, rendererOrigin);

  parts.add(wakeOnResume(powerMonitor, () => started.wake(), logger));

  // Windows talk to this computer's gateway, or to another machine's this desktop paired with (pinned TLS).
  const switcher = parts.add(
    createGatewaySwitch({
      local: started.gateway,
      identity: new RemoteGatewayIdentity(secrets.store, paths.identityDir),
      version: app.getVersion(),
      platform: process.platform,
      displayName: `Hearth desktop (${hostname()})`,
      now: () => systemClock.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      // A new gateway means new chats: every window starts over, nothing of the other one lingers.
      reloadWindows: () => {
        for (const open of BrowserWindow.getAllWindows()) open.webContents.reload();
      },
      logger,
    }),
  );
  await switcher.load();
  parts.add(
    serveGatewaysIpc({
      ipcMain,
      switcher,
      appOrigin: rendererOrigin,
      receivers: () => BrowserWindow.getAllWindows().map((open) => open.webContents),
      logger,
    }),
  );
  const bridge = parts.add(
    createIpcBridge({ ipcMain, gateway: switcher.gateway, appOrigin: rendererOrigin, clock: systemClock, logger }),
  );
  const windowInput = {
    preloadPath: resource('dist', 'src-preload', 'index.js'),
    iconPath: resource('resources', 'icons', '512x512.png'),
    appVersion: app.getVersion(),
    gatewayUrl: originOf(started.url),
    devTools: !app.isPackaged,
  };
  const mainWindow = new BrowserWindow(mainWindowOptions(windowInput));
  window = mainWindow;
  guardNavigation(mainWindow.webContents, {
    appOrigin: rendererOrigin,
    openExternal: (url) => shell.openExternal(url),
    logger,
  });
  bridge.attach(mainWindow.webContents);
  hideOnClose(mainWindow, () => shutdown.quitting);
  showWhenReady(mainWindow, launchedAtLogin(argv, app.getLoginItemSettings().wasOpenedAtLogin));
  mainWindow.webContents.on('did-finish-load', () => {
    pageReady = true;
    for (const route of pendingRoutes.splice(0)) openRoute(route);
  });
  if (instance.launchLink) instance.handle(instance.launchLink);
  await mainWindow.loadURL(devRendererUrl ?? APP_ENTRY_URL);

  // The shell's own client (same protocol as a window) on the gateway in use: the tray's Pause acts
  // on it, its finished runs notify, and a paired gateway's approvals get the native box (this
  // computer's come through the prompter above). Switching gateways starts them over on the new one.
  let shellClient: ReturnType<typeof createShellClient> | undefined;
  const tray = parts.add(
    createTrayController({
      createTray: () => new Tray(resource('resources', 'icons', 'tray.png')),
      buildMenu: (template) => Menu.buildFromTemplate(template),
      clickOpens: process.platform !== 'darwin',
      actions: {
        open: summon,
        togglePause: () => {
          const method = tray.state.agentPaused ? 'agent.resume' : 'agent.pause';
          if (!shellClient) return;
          shellClient.request(method, {}).then(
            (state) => tray.update({ agentPaused: state.paused }),
            (error: unknown) =>
              notifier.notify({
                title: 'Hearth could not change pause',
                body: error instanceof Error ? error.message : String(error),
              }),
          );
        },
        revealLogs: logActions.revealLogs,
        copyDiagnostics: () => void logActions.copyDiagnostics(),
        quit: () => app.quit(),
      },
    }),
  );
  parts.add(
    followSelectedGateway(switcher, (selected) => {
      inUse = selected;
      const running = new DisposableStore();
      const client = running.add(
        createShellClient(switcher.gateway, { version: app.getVersion(), clock: systemClock }),
      );
      shellClient = client;
      tray.update({ remoteGateway: selected.remoteName, agentPaused: false, gatewayUp: !selected.remoteName });
      running.add(
        client.onDidChangeState((state) => {
          if (selected.remoteName) tray.update({ gatewayUp: state.status === 'connected' });
        }),
      );
      running.add(
        notifyFinishedRuns({
          events: client,
          notifier,
          // Any Hearth window focused (main or quick ask) means the person sees the answer arrive.
          windowFocused: () => BrowserWindow.getFocusedWindow() !== null,
          openSession: (sessionKey) => openRoute(routeForDeepLink({ kind: 'session', sessionKey })),
          clock: systemClock,
          remoteGateway: selected.remoteName,
          words: language.words,
        }),
      );
      // A pause made anywhere (the tray, a phone, another client) shows in the tray.
      running.add(client.on('agent.pause.changed', (state) => tray.update({ agentPaused: state.paused })));
      running.add(
        client.onDidConnect(() => {
          client.request('agent.pause.status', {}).then(
            (state) => tray.update({ agentPaused: state.paused }),
            () => {},
          );
        }),
      );
      if (selected.remoteName) {
        running.add(promptRemoteApprovals({ client, prompter, gateway: selected.remoteName, logger }));
      }
      return running;
    }),
  );
  tray.update({ pendingApprovals: prompter.pendingCount });
  parts.add(prompter.onDidChangePending((count) => tray.update({ pendingApprovals: count })));
  parts.add({ dispose: () => tray.update({ gatewayUp: false }) });

  const quickAsk = parts.add(
    createQuickAsk({
      createWindow: () => {
        const quick = new BrowserWindow(quickAskWindowOptions(secureWebPreferences(windowInput)));
        guardNavigation(quick.webContents, {
          appOrigin: rendererOrigin,
          openExternal: (url) => shell.openExternal(url),
          logger,
        });
        bridge.attach(quick.webContents);
        // Esc in the composer closes the page's window: keep it, hidden, for the next press.
        hideOnClose(quick, () => shutdown.quitting);
        void quick.loadURL(`${devRendererUrl ?? APP_ENTRY_URL}${QUICK_ASK_ROUTE}`);
        return quick;
      },
      openSession: (sessionKey) => openRoute(routeForDeepLink({ kind: 'session', sessionKey })),
      logger,
    }),
  );
  const shortcuts = [
    registerGlobalShortcut(
      globalShortcut,
      {
        purpose: 'Summon Hearth',
        accelerator: env.HEARTH_SUMMON_SHORTCUT || DEFAULT_SUMMON_SHORTCUT,
        setting: 'HEARTH_SUMMON_SHORTCUT',
        action: summon,
      },
      logger,
    ),
    registerGlobalShortcut(
      globalShortcut,
      {
        purpose: 'Quick ask',
        accelerator: env.HEARTH_QUICK_ASK_SHORTCUT || DEFAULT_QUICK_ASK_SHORTCUT,
        setting: 'HEARTH_QUICK_ASK_SHORTCUT',
        action: () => quickAsk.toggle(),
      },
      logger,
    ),
  ];
  for (const shortcut of shortcuts) {
    parts.add(shortcut);
    // Said once, where the person will see it: a key that silently does nothing is a bug report.
    if (shortcut.problem) notifier.notify({ title: 'Hearth shortcut unavailable', body: shortcut.problem });
  }
  // Outside the updater's cache (which keeps only the pending download): the way back after an update.
  const kept = keptInstallers(join(app.getPath('userData'), 'kept-installers'), () => systemClock.now());
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({
        isMac: process.platform === 'darwin',
        devTools: !app.isPackaged,
        actions: {
          revealLogs: logActions.revealLogs,
          copyDiagnostics: () => void logActions.copyDiagnostics(),
          goBack: () =>
            void goBackToPreviousVersion({
              kept,
              runningVersion: app.getVersion(),
              ask: async (options) => (await messageBox(options)).response,
              openInstaller: (file) => shell.openPath(file),
              quit: () => app.quit(),
              logger,
            }),
        },
      }),
    ),
  );

  const updater = await loadUpdater();
  if (updater) {
    parts.add(
      startAutoUpdates({
        updater,
        isPackaged: app.isPackaged,
        channel: app.getVersion().includes('-') ? 'beta' : 'stable',
        clock: systemClock,
        askToRestart: async (version) => (await messageBox(restartPromptOptions(version))).response === 0,
        kept,
        logger,
      }),
    );
  }
}

/** electron-updater ships with the packaged app; resolved at run time so dev and tests need not have it. */
async function loadUpdater(): Promise<AppUpdaterLike | undefined> {
  const specifier: string = 'electron-updater';
  try {
    const loaded = (await import(specifier)) as {
      autoUpdater?: AppUpdaterLike;
      default?: { autoUpdater?: AppUpdaterLike };
    };
    return loaded.autoUpdater ?? loaded.default?.autoUpdater;
  } catch (error) {
    logger.info('electron-updater not available; updates off', { error: String(error) });
    return undefined;
  }
}

if (instance.primary) {
  // Hearth lives in the tray: closing the last window must not quit.
  app.on('window-all-closed', () => {});
  app.on('activate', summon);
  if (!app.isDefaultProtocolClient('hearth')) {
    if (app.isPackaged) app.setAsDefaultProtocolClient('hearth');
    else if (argv[1]) app.setAsDefaultProtocolClient('hearth', process.execPath, [argv[1]]);
  }
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      logger.error('startup failed', {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      dialog.showErrorBox(
        'Hearth could not start',
        `${error instanceof Error ? error.message : String(error)}\n\nLogs: ${logFile}`,
      );
      app.exit(1);
    });
}
