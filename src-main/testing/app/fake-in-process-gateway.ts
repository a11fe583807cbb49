import type { Disposable } from '../../base/index.js';
import type {
  InProcessConnection,
  InProcessConnectOptions,
  InProcessGateway,
} from '../../gateway/in-process-transport.js';
import type { RequestFrame, ServerFrame } from '../../protocol/index.js';

/**
 * A stand-in for the gateway side of the in-process transport, for the shell's
 * tests. Like GatewayCore it greets each connection with `connect.challenge`
 * (held until the first listener), answers every request with `{echo: method}`
 * and records what arrived, so a test sees exactly which frames got through.
 */
export interface FakeInProcessGateway extends InProcessGateway {
  readonly connections: FakeConnection[];
}

export interface FakeConnection extends InProcessConnection {
  readonly received: unknown[];
  readonly options: InProcessConnectOptions | undefined;
  readonly isClosed: boolean;
  /** Push a frame to the client, as the gateway would for an event. */
  emit(frame: ServerFrame): void;
  /** Close from the gateway side. */
  close(code: number, reason: string): void;
}

export function createFakeInProcessGateway(): FakeInProcessGateway {
  const connections: FakeConnection[] = [];
  return {
    connections,
    connectInProcess(options) {
      const listeners = new Set<(frame: ServerFrame) => void>();
      const received: unknown[] = [];
      let closed = false;
      let resolveClosed: (value: { code: number; reason: string }) => void = () => {};
      const closedPromise = new Promise<{ code: number; reason: string }>((resolve) => {
        resolveClosed = resolve;
      });
      const close = (code: number, reason: string) => {
        if (closed) return;
        closed = true;
        listeners.clear();
        resolveClosed({ code, reason });
      };
      const backlog: ServerFrame[] = [];
      const emit = (frame: ServerFrame) => {
        if (listeners.size === 0) backlog.push(frame);
        for (const listener of listeners) listener(frame);
      };
      const index = connections.length + 1;
      emit({ type: 'event', event: 'connect.challenge', payload: { nonce: `nonce-${index}`, ts: 0 } });
      const connection: FakeConnection = {
        connId: `conn-${index}`,
        received,
        options,
        get isClosed() {
          return closed;
        },
        send(frame) {
          if (closed) throw new Error('connection closed');
          received.push(frame);
          const request = frame as RequestFrame;
          queueMicrotask(() => emit({ type: 'res', id: request.id, ok: true, payload: { echo: request.method } }));
        },
        onFrame(listener): Disposable {
          listeners.add(listener);
          for (const frame of backlog.splice(0)) listener(frame);
          return { dispose: () => listeners.delete(listener) };
        },
        closed: closedPromise,
        emit,
        close,
        dispose: () => close(1000, 'client closed'),
      };
      connections.push(connection);
      return connection;
    },
  };
}
