import { Emitter } from '../../base/emitter.js';
import { type ServerFrame, serverFrameSchema } from '../frames.js';
import type { Transport, TransportCloseInfo } from './transport.js';

/** The WHATWG WebSocket surface we use; the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

const OPEN = 1;

/**
 * A transport over one WebSocket. Frames that are not valid server frames are dropped
 * (and reported), never passed up half-parsed.
 */
export function createWebSocketTransport(
  url: string,
  WebSocketImpl: WebSocketConstructor,
  onBadFrame: (reason: string) => void = () => {},
): Transport {
  let socket: WebSocketLike | undefined;
  const frames = new Emitter<ServerFrame>();
  const closes = new Emitter<TransportCloseInfo>();
  let closed = false;
  const finish = (info: TransportCloseInfo) => {
    if (closed) return;
    closed = true;
    closes.fire(info);
  };

  return {
    open() {
      return new Promise<void>((resolve, reject) => {
        let opened = false;
        try {
          socket = new WebSocketImpl(url);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        socket.addEventListener('open', () => {
          opened = true;
          resolve();
        });
        socket.addEventListener('error', () => {
          if (!opened) reject(new Error(`cannot connect to ${url}`));
        });
        socket.addEventListener('message', (event) => {
          if (typeof event.data !== 'string') return onBadFrame('binary frame');
          let value: unknown;
          try {
            value = JSON.parse(event.data);
          } catch {
            return onBadFrame('not JSON');
          }
          const parsed = serverFrameSchema.safeParse(value);
          if (!parsed.success) return onBadFrame('not a server frame');
          frames.fire(parsed.data);
        });
        socket.addEventListener('close', (event) => finish({ code: event.code, reason: event.reason }));
      });
    },
    send(frame) {
      if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(frame));
    },
    onFrame(listener) {
      const subscription = frames.event(listener);
      return () => subscription.dispose();
    },
    onClose(listener) {
      const subscription = closes.event(listener);
      return () => subscription.dispose();
    },
    close(code = 1000, reason = '') {
      socket?.close(code, reason);
      finish({ code, reason });
    },
  };
}
