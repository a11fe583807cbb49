import type { ClientFrame, ServerFrame } from '../src-main/protocol/index.js';
import type { GatewaysCommand, GatewaysView, HearthBridge, IpcRendererLike } from './hearth-bridge.js';

/**
 * The whole preload: a generic frame forwarder exposed to the page as
 * `window.hearth`. It runs sandboxed, and Electron evaluates sandboxed preloads as
 * CommonJS scripts whose `require` knows only 'electron' and a few builtins, so
 * this is one self-contained CommonJS file (src-preload/package.json) with nothing
 * but type imports. It hands the page no Electron or Node object: not
 * ipcRenderer, not the IPC event (whose `sender` is ipcRenderer), only frames and
 * two strings. Main checks the sender and parses every frame with the protocol schema.
 */
const FRAME_CHANNEL = 'hearth:frame';
const VERSION_ARG = '--hearth-version=';
const GATEWAY_URL_ARG = '--hearth-gateway-url=';
const GATEWAYS_CHANNEL = 'hearth:gateways';
const GATEWAYS_CHANGED_CHANNEL = 'hearth:gateways-changed';
const LANGUAGE_CHANNEL = 'hearth:language';
/** Frames kept while the page has no listener (main greets a new page before its app subscribes). */
const BACKLOG_LIMIT = 256;

interface BridgeOptions {
  version: string;
  gatewayUrl?: string;
}

function createBridge(ipc: IpcRendererLike, options: BridgeOptions): HearthBridge {
  const listeners = new Set<(frame: ServerFrame) => void>();
  const backlog: ServerFrame[] = [];
  // One IPC listener for the page's lifetime; frames that arrive while nobody on
  // the page listens (before the app starts, between reconnects) wait in order.
  ipc.on(FRAME_CHANNEL, (_event: unknown, frame: unknown) => {
    if (listeners.size === 0) {
      backlog.push(frame as ServerFrame);
      if (backlog.length > BACKLOG_LIMIT) backlog.shift();
      return;
    }
    for (const listener of [...listeners]) listener(frame as ServerFrame);
  });
  const bridge: HearthBridge = {
    send(frame: ClientFrame): void {
      ipc.send(FRAME_CHANNEL, frame);
    },
    onFrame(listener: (frame: ServerFrame) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('hearth.onFrame needs a function');
      listeners.add(listener);
      for (const frame of backlog.splice(0)) listener(frame);
      return () => {
        listeners.delete(listener);
      };
    },
    version: options.version,
    gateways(command: GatewaysCommand): Promise<GatewaysView> {
      return ipc.invoke(GATEWAYS_CHANNEL, command) as Promise<GatewaysView>;
    },
    onGatewaysChange(listener: (view: GatewaysView) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('hearth.onGatewaysChange needs a function');
      // Only the view reaches the page, never the IPC event (whose sender is ipcRenderer).
      const relay = (_event: unknown, view: unknown) => listener(view as GatewaysView);
      ipc.on(GATEWAYS_CHANGED_CHANNEL, relay);
      return () => {
        ipc.removeListener(GATEWAYS_CHANGED_CHANNEL, relay);
      };
    },
    setLanguage(language: string): void {
      if (language === 'en' || language === 'zh') ipc.send(LANGUAGE_CHANNEL, language);
    },
  };
  if (options.gatewayUrl) Object.assign(bridge, { gatewayUrl: options.gatewayUrl });
  return Object.freeze(bridge);
}

/** Main passes these in `webPreferences.additionalArguments` (the sandbox has no `app`). */
function optionsFromArgv(argv: readonly string[]): BridgeOptions {
  const value = (prefix: string) => argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
  const gatewayUrl = value(GATEWAY_URL_ARG);
  return { version: value(VERSION_ARG) ?? 'unknown', ...(gatewayUrl ? { gatewayUrl } : {}) };
}

// Only inside an Electron renderer: loading this file under Node (tests, tools)
// must not load 'electron', which would try to download a binary.
if (typeof process !== 'undefined' && process.type === 'renderer') {
  const { contextBridge, ipcRenderer } = require('electron') as typeof import('electron');
  contextBridge.exposeInMainWorld('hearth', createBridge(ipcRenderer, optionsFromArgv(process.argv)));
}

export = {
  FRAME_CHANNEL,
  VERSION_ARG,
  GATEWAY_URL_ARG,
  GATEWAYS_CHANNEL,
  GATEWAYS_CHANGED_CHANNEL,
  LANGUAGE_CHANNEL,
  createBridge,
  optionsFromArgv,
};
