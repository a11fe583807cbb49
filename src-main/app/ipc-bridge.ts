import type { Clock, Disposable, Logger } from '../base/index.js';
import type { InProcessConnection, InProcessGateway } from '../gateway/in-process-transport.js';
import { parseClientFrameValue, type ResponseFrame, type ServerFrame } from '../protocol/index.js';
import { isSameOrigin } from './app-origin.js';

/** The one IPC channel, both directions; the preload uses the same name. */
export const FRAME_CHANNEL = 'hearth:frame';

/** The parts of Electron's IpcMainEvent the bridge reads. */
export interface FrameEventLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

export interface IpcMainLike {
  on(channel: string, listener: (event: FrameEventLike, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: FrameEventLike, ...args: unknown[]) => void): unknown;
}

/** The parts of a window's WebContents the bridge uses. */
export interface BridgeWebContents {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
  /** A new document finished parsing; its preload and scripts are listening. */
  on(event: 'dom-ready', listener: () => void): unknown;
}

export interface IpcBridgeDeps {
  ipcMain: IpcMainLike;
  gateway: InProcessGateway;
  /** Only frames from documents of this origin are accepted (see app-origin.ts). */
  appOrigin: string;
  clock: Clock;
  logger: Logger;
}

/** Pause before giving a window a fresh connection after the gateway closed its last one. */
export const REOPEN_DELAY_MS = 1000;

export interface IpcBridge extends Disposable {
  /** Starts carrying frames for one window; detached again when its WebContents is destroyed. */
  attach(webContents: BridgeWebContents): Disposable;
  /** How many windows currently hold an open in-process connection. */
  readonly openConnections: number;
}

interface Attached {
  webContents: BridgeWebContents;
  connection: InProcessConnection | undefined;
  listener: Disposable | undefined;
  reopen: Disposable | undefined;
}

/**
 * Carries protocol frames between renderer windows and the in-process gateway.
 * Each window gets its own connection, and a fresh one for every document it
 * loads (opened on `dom-ready`, when the page is listening, so it sees the
 * `connect.challenge` exactly as a WebSocket client would). When the gateway
 * closes a window's connection, a new one follows shortly, so the page can
 * reconnect by answering the new challenge. Frames from anything but our own
 * top-level document are dropped: a hostile iframe or a stray window gets nothing.
 */
export function createIpcBridge(deps: IpcBridgeDeps): IpcBridge {
  const log = deps.logger.child({ component: 'ipc-bridge' });
  const windows = new Map<number, Attached>();
  let disposed = false;

  const closeConnection = (entry: Attached): void => {
    entry.reopen?.dispose();
    entry.reopen = undefined;
    entry.listener?.dispose();
    entry.listener = undefined;
    const connection = entry.connection;
    entry.connection = undefined;
    connection?.dispose();
  };

  const open = (entry: Attached): InProcessConnection | undefined => {
    closeConnection(entry);
    let connection: InProcessConnection;
    try {
      connection = deps.gateway.connectInProcess({ displayName: 'Hearth desktop' });
    } catch (error) {
      log.error('could not open an in-process connection', { error: String(error) });
      return undefined;
    }
    entry.connection = connection;
    entry.listener = connection.onFrame((frame: ServerFrame) => {
      if (!entry.webContents.isDestroyed()) entry.webContents.send(FRAME_CHANNEL, frame);
    });
    void connection.closed.then(({ code, reason }) => {
      if (entry.connection !== connection) return;
      entry.listener?.dispose();
      entry.listener = undefined;
      entry.connection = undefined;
      log.debug('in-process connection closed', { code, reason, webContentsId: entry.webContents.id });
      if (disposed || windows.get(entry.webContents.id) !== entry || entry.webContents.isDestroyed()) return;
      entry.reopen = deps.clock.setTimeout(() => {
        entry.reopen = undefined;
        if (!entry.connection && windows.get(entry.webContents.id) === entry) open(entry);
      }, REOPEN_DELAY_MS);
    });
    return connection;
  };

  const onFrame = (event: FrameEventLike, ...args: unknown[]): void => {
    const entry = windows.get(event.sender.id);
    const frameUrl = event.senderFrame?.url ?? '';
    if (!entry || !event.senderFrame || event.senderFrame.parent || !isSameOrigin(frameUrl, deps.appOrigin)) {
      log.warn('dropped a frame from an untrusted sender', { webContentsId: event.sender.id, url: frameUrl });
      return;
    }
    if (args.length !== 1) {
      entry.webContents.send(FRAME_CHANNEL, invalidFrameResponse(args[0], `expected one frame, got ${args.length}`));
      return;
    }
    const parsed = parseClientFrameValue(args[0]);
    if (parsed.kind !== 'request') {
      const reason = parsed.kind === 'invalid' ? parsed.reason : 'not JSON';
      entry.webContents.send(FRAME_CHANNEL, invalidFrameResponse(args[0], reason));
      return;
    }
    (entry.connection ?? open(entry))?.send(parsed.frame);
  };
  deps.ipcMain.on(FRAME_CHANNEL, onFrame);

  const detach = (id: number): void => {
    const entry = windows.get(id);
    if (!entry) return;
    windows.delete(id);
    closeConnection(entry);
  };

  return {
    attach(webContents) {
      if (windows.has(webContents.id)) throw new Error(`webContents ${webContents.id} is already attached`);
      const entry: Attached = { webContents, connection: undefined, listener: undefined, reopen: undefined };
      windows.set(webContents.id, entry);
      // Every document load (first load, reload, dev-server refresh) starts a new session.
      webContents.on('dom-ready', () => {
        if (windows.get(webContents.id) === entry) open(entry);
      });
      webContents.once('destroyed', () => detach(webContents.id));
      return { dispose: () => detach(webContents.id) };
    },
    get openConnections() {
      let open = 0;
      for (const entry of windows.values()) if (entry.connection) open += 1;
      return open;
    },
    dispose() {
      disposed = true;
      deps.ipcMain.removeListener(FRAME_CHANNEL, onFrame);
      for (const id of [...windows.keys()]) detach(id);
    },
  };
}

/**
 * The answer a WebSocket client gets for a frame that is not a valid request:
 * INVALID_REQUEST naming what was wrong, tied to the request id when one can be read.
 */
export function invalidFrameResponse(value: unknown, reason: string): ResponseFrame {
  const id =
    typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
      ? (value as { id: string }).id
      : '';
  return {
    type: 'res',
    id,
    ok: false,
    error: { code: 'INVALID_REQUEST', message: `invalid request frame: ${reason}` },
  };
}
