import type { ClientFrame, ServerFrame } from '../frames.js';

/** Why a transport closed; `code` follows WebSocket close codes (PROTOCOL.md §8). */
export interface TransportCloseInfo {
  code: number;
  reason: string;
}

/**
 * One connection's worth of frames. The client never knows what carries them: a
 * WebSocket (browser, phone, CLI under Node with `ws`), the Electron preload bridge,
 * or an in-memory pair in tests. A transport is single use: after close, make a new one.
 */
export interface Transport {
  /** Starts connecting. Rejects when the connection cannot be made at all. */
  open(): Promise<void>;
  /** Must not throw once open; frames sent after close are dropped. */
  send(frame: ClientFrame): void;
  onFrame(listener: (frame: ServerFrame) => void): () => void;
  /** Fires once, when either side closed or the connection failed. */
  onClose(listener: (info: TransportCloseInfo) => void): () => void;
  close(code?: number, reason?: string): void;
}

/** The client reconnects by asking for a fresh transport each time. */
export type TransportFactory = () => Transport;
