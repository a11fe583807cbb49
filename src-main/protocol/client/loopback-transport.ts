import type { ClientFrame, ServerFrame } from '../frames.js';
import type { Transport, TransportCloseInfo } from './transport.js';

/** The far end of a loopback transport: what a scripted gateway in a test (or an in-process host) holds. */
export interface LoopbackPeer {
  /** Frames the client sent, oldest first. */
  readonly received: ClientFrame[];
  /** Delivers a frame to the client. */
  send(frame: ServerFrame): void;
  /** Closes from the gateway side. */
  close(code?: number, reason?: string): void;
  onFrame(listener: (frame: ClientFrame) => void): () => void;
  readonly isOpen: boolean;
  readonly closeInfo: TransportCloseInfo | undefined;
}

export interface LoopbackPair {
  transport: Transport;
  peer: LoopbackPeer;
}

/**
 * An in-memory transport and its peer. Frames are structured-cloned so neither side can
 * mutate what the other holds, as over IPC or a socket. `onOpen` runs when the client opens,
 * which is where a scripted gateway sends its challenge; `refuse` makes open() reject.
 */
export function createLoopbackPair(
  setup: { onOpen?: (peer: LoopbackPeer) => void; refuse?: string } = {},
): LoopbackPair {
  const frameListeners = new Set<(frame: ServerFrame) => void>();
  const closeListeners = new Set<(info: TransportCloseInfo) => void>();
  const peerListeners = new Set<(frame: ClientFrame) => void>();
  const received: ClientFrame[] = [];
  let open = false;
  let closeInfo: TransportCloseInfo | undefined;

  const closeWith = (info: TransportCloseInfo) => {
    if (closeInfo) return;
    open = false;
    closeInfo = info;
    for (const listener of [...closeListeners]) listener(info);
  };

  const peer: LoopbackPeer = {
    received,
    send(frame) {
      if (!open) return;
      const copy = structuredClone(frame);
      for (const listener of [...frameListeners]) listener(copy);
    },
    close: (code = 1000, reason = '') => closeWith({ code, reason }),
    onFrame(listener) {
      peerListeners.add(listener);
      return () => peerListeners.delete(listener);
    },
    get isOpen() {
      return open;
    },
    get closeInfo() {
      return closeInfo;
    },
  };

  const transport: Transport = {
    async open() {
      if (setup.refuse) throw new Error(setup.refuse);
      open = true;
      setup.onOpen?.(peer);
    },
    send(frame) {
      if (!open) return;
      const copy = structuredClone(frame);
      received.push(copy);
      for (const listener of [...peerListeners]) listener(copy);
    },
    onFrame(listener) {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close: (code = 1000, reason = '') => closeWith({ code, reason }),
  };
  return { transport, peer };
}
