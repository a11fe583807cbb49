import type { GatewaysView } from '../src-main/protocol/desktop-gateways.js';
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
  /**
   * Which gateway the desktop uses (this computer's, or another machine's it paired with): one
   * command (`{kind: 'view' | 'pair' | 'cancel-pairing' | 'use' | 'forget', code?, id?}`),
   * answered with the view. Works while the window has no gateway connection.
   */
  gateways(command: GatewaysCommand): Promise<GatewaysView>;
  /** Every change of that view (pairing progress, the gateway in use, a certificate refused). */
  onGatewaysChange(listener: (view: GatewaysView) => void): () => void;
  /**
   * The language the person chose in Settings (`en` | `zh`): main words its native approval box
   * and notifications in it. Anything else is ignored.
   */
  setLanguage(language: string): void;
}

/** A command to main's gateway switch (src-main/app/remote-gateway-ipc.ts parses it again). */
export type GatewaysCommand =
  | { kind: 'view' }
  | { kind: 'pair'; code: string }
  | { kind: 'cancel-pairing' }
  | { kind: 'use'; id: string }
  | { kind: 'forget'; id: string };

export type { GatewaysView };

/** The parts of ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  send(channel: string, ...args: unknown[]): void;
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}
