import type { Disposable } from '../base/disposable.js';
import type { ServerFrame } from '../protocol/index.js';

/**
 * The transport the Electron preload IPC rides on: the same frames as the WebSocket,
 * through the same `Connection` and dispatch, with no socket. The caller is a
 * trusted local window, so it gets an operator identity without a token; its frames
 * are still parsed and checked like any other client's.
 */
export interface InProcessConnection extends Disposable {
  readonly connId: string;
  /** Hand a frame from the client (already structured-cloned; may be anything). */
  send(frame: unknown): void;
  onFrame(listener: (frame: ServerFrame) => void): Disposable;
  /** Resolves when the connection has closed (by either side). */
  readonly closed: Promise<{ code: number; reason: string }>;
}

export interface InProcessConnectOptions {
  /** Shown in presence. */
  displayName?: string;
  /** Defaults to full operator scopes: the local desktop window is trusted. */
  scopes?: string[];
}

export interface InProcessGateway {
  connectInProcess(options?: InProcessConnectOptions): InProcessConnection;
}
