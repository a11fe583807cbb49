// The desktop shell's parts, for wiring and for tests. main.ts (the Electron entry)
// is deliberately not re-exported: it loads the real `electron` module.

export { REDACTED, redactSecrets, redactValue } from '../base/secret-redaction.js';
export { type AppMenuActions, appMenuTemplate } from './app-menu.js';
export { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, isExternalWebUrl, isSameOrigin, originOf } from './app-origin.js';
export { type AppProtocolOptions, appSchemePrivileges, createAppProtocolHandler } from './app-protocol.js';
export {
  type ApprovalBoxOptions,
  type ApprovalDialogDeps,
  approvalBoxOptions,
  approvalDetail,
  createNativeApprovalPrompter,
  type NativeApprovalPrompter,
  offeredDecisions,
  PROMPTER_NAME,
} from './approval-dialog.js';
export {
  hideOnClose,
  type MainWindowOptionsInput,
  mainWindowOptions,
  type ShellWindow,
  showWhenReady,
  summonWindow,
} from './create-window.js';
export { buildContentSecurityPolicy, type CspOptions, installContentSecurityPolicy } from './csp.js';
export { type DeepLink, DeepLinkError, findDeepLinkArg, parseDeepLink } from './deep-links.js';
export { type DesktopSecretStoreOptions, openDesktopSecretStore, safeStorageFilePath } from './desktop-secret-store.js';
export {
  DEFAULT_QUICK_ASK_SHORTCUT,
  DEFAULT_SUMMON_SHORTCUT,
  registerGlobalShortcut,
} from './global-shortcut.js';
export {
  type BridgeWebContents,
  createIpcBridge,
  FRAME_CHANNEL,
  type IpcBridge,
  type IpcBridgeDeps,
  invalidFrameResponse,
  REOPEN_DELAY_MS,
} from './ipc-bridge.js';
export { HIDDEN_FLAG, isLaunchAtLoginEnabled, launchedAtLogin, setLaunchAtLogin } from './launch-at-login.js';
export { createFileLogger, createLogActions, formatDiagnostics, mainLogPath, readLogTail } from './logs.js';
export { guardNavigation, type NavigationGuardDeps } from './navigation-guard.js';
export {
  createNotifier,
  finishedTaskMessage,
  type Notifier,
  shouldNotifyFinishedTask,
} from './notifications.js';
export { denyPermissionsByDefault, isPermissionGranted } from './permissions.js';
export {
  createSafeStorageSecretStore,
  SAFE_STORAGE_BACKEND,
  type SafeStorageLike,
  SafeStorageUnavailableError,
  secretStorageSettingsCopy,
} from './safe-storage-secret-store.js';
export { type CleanShutdown, installCleanShutdown } from './shutdown.js';
export { claimSingleInstance, routeForDeepLink, type SingleInstance } from './single-instance.js';
export { createTrayController, type TrayController, type TrayState, trayMenuTemplate, trayToolTip } from './tray.js';
export {
  type AppUpdaterLike,
  type AutoUpdates,
  restartPromptOptions,
  startAutoUpdates,
  UPDATE_INTERVAL_MS,
  type UpdateChannel,
} from './updater.js';
