import type { Transport, TransportCloseInfo, TransportFactory } from '../../src-main/protocol/client/transport.js';
import type { ServerFrame } from '../../src-main/protocol/frames.js';
import { Emitter } from '../../src-main/protocol/index.js';
import type { HearthBridge } from './bridge.js';

/** Close code the transport reports when main replaced the window's connection (WebSocket "service restart"). */
export const connectionReplacedCode = 1012;

/**
 * Transports over the Electron preload bridge, one per (re)connect, sharing one bridge
 * subscription for the page's life. Main opens an in-process connection when the page
 * loads and greets it with `connect.challenge`; when that connection ends, main opens a
 * new one and greets again. IPC has no close frame, so a second challenge is how the
 * renderer learns its connection was replaced: the current transport closes, and the
 * challenge is kept for the next transport, which answers it at once.
 */
export function createIpcTransportFactory(bridge: HearthBridge): TransportFactory {
  let current: IpcTransport | undefined;
  let stashedChallenge: ServerFrame | undefined;
  bridge.onFrame((frame) => {
    const isChallenge = frame.type === 'event' && frame.event === 'connect.challenge';
    if (!current || current.closed) {
      if (isChallenge) stashedChallenge = frame;
      return;
    }
    if (isChallenge && current.sawChallenge) {
      stashedChallenge = frame;
      current.close(connectionReplacedCode, 'the desktop gateway reopened the connection');
      return;
    }
    if (isChallenge) current.sawChallenge = true;
    current.deliver(frame);
  });
  return () => {
    current?.close(1000, 'replaced by a new transport');
    const transport = new IpcTransport(bridge, () => {
      const challenge = stashedChallenge;
      stashedChallenge = undefined;
      return challenge;
    });
    current = transport;
    return transport;
  };
}

class IpcTransport implements Transport {
  private readonly frames = new Emitter<ServerFrame>();
  private readonly closes = new Emitter<TransportCloseInfo>();
  closed = false;
  sawChallenge = false;

  constructor(
    private readonly bridge: HearthBridge,
    private readonly takeChallenge: () => ServerFrame | undefined,
  ) {}

  async open(): Promise<void> {
    const challenge = this.takeChallenge();
    if (challenge) {
      this.sawChallenge = true;
      // After open() resolves, so the client's listeners are in place.
      queueMicrotask(() => this.deliver(challenge));
    }
  }

  deliver(frame: ServerFrame): void {
    if (this.closed) return;
    this.frames.fire(frame);
  }

  send(frame: Parameters<Transport['send']>[0]): void {
    if (!this.closed) this.bridge.send(frame);
  }

  onFrame(listener: (frame: ServerFrame) => void): () => void {
    const subscription = this.frames.event(listener);
    return () => subscription.dispose();
  }

  onClose(listener: (info: TransportCloseInfo) => void): () => void {
    const subscription = this.closes.event(listener);
    return () => subscription.dispose();
  }

  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    this.closed = true;
    this.closes.fire({ code, reason });
  }
}
