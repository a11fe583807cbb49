import type { ClientFrame, ServerFrame } from '../src-main/protocol/index.js';

// Types only: this file emits nothing the preload needs at run time (the sandbox
// cannot require our own files), so index.ts imports it with `import type`.

/** `window.hearth` as the Control UI sees it. */
export interface HearthBridge {
  /** One protocol request frame; main validates it like any WebSocket frame. */
  send(frame: ClientFrame): void;
  /** Every frame the gateway sends this window; returns the unsubscribe function. */
  onFrame(listener: (frame: ServerFrame) => void): () => void;
  readonly version: string;
  /** The gateway's HTTP origin (for the canvas iframe); the page itself is served from app://hearth. */
  readonly gatewayUrl?: string;
}

/** The parts of ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}
