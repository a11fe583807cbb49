import type { Clock, Disposable } from '../base/index.js';
import type { InProcessGateway } from '../gateway/in-process-transport.js';
import { GatewayClient } from '../protocol/client/gateway-client.js';
import type { Transport, TransportCloseInfo } from '../protocol/client/transport.js';
import { type ConnectParams, PROTOCOL_VERSION, type ServerFrame } from '../protocol/index.js';

/**
 * The shell's own gateway client (tray's Pause agent, notifications when a run ends): the
 * same protocol as every other client, over an in-process connection instead of a socket,
 * so the shell sees exactly the events and refusals a window does.
 */
export function createShellClient(
  gateway: InProcessGateway,
  options: { version: string; clock: Clock },
): GatewayClient {
  const client = new GatewayClient({
    transport: () => inProcessTransport(gateway),
    connectParams: (): ConnectParams => ({
      minProtocol: PROTOCOL_VERSION,
      maxProtocol: PROTOCOL_VERSION,
      client: { id: 'hearth-desktop', mode: 'backend', version: options.version, platform: process.platform },
      role: 'operator',
      // Approvals too: the native box answers a paired gateway's requests through this client.
      scopes: ['operator.read', 'operator.write', 'operator.approvals'],
    }),
    clock: options.clock,
  });
  client.start();
  return client;
}

function inProcessTransport(gateway: InProcessGateway): Transport {
  const frameListeners = new Set<(frame: ServerFrame) => void>();
  const closeListeners = new Set<(info: TransportCloseInfo) => void>();
  let connection: ReturnType<InProcessGateway['connectInProcess']> | undefined;
  // The connection's frame subscription, released when it closes (from either side), as the window's bridge does.
  let frames: Disposable | undefined;
  return {
    async open() {
      const opened = gateway.connectInProcess({ displayName: 'Hearth desktop shell' });
      connection = opened;
      const subscription = opened.onFrame((frame) => {
        for (const listener of [...frameListeners]) listener(frame);
      });
      frames = subscription;
      void opened.closed.then((info) => {
        subscription.dispose();
        if (frames === subscription) frames = undefined;
        for (const listener of [...closeListeners]) listener(info);
      });
    },
    send(frame) {
      connection?.send(frame);
    },
    onFrame(listener) {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close() {
      frames?.dispose();
      frames = undefined;
      connection?.dispose();
    },
  };
}
