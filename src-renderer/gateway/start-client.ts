import { GatewayClient } from '../../src-main/protocol/client/gateway-client.js';
import type { TransportFactory } from '../../src-main/protocol/client/transport.js';
import {
  createWebSocketTransport,
  type WebSocketConstructor,
} from '../../src-main/protocol/client/websocket-transport.js';
import { findBridge } from './bridge.js';
import { buildUiConnectParams } from './connect-params.js';
import { gatewaySocketUrl } from './gateway-url.js';
import { createIpcTransportFactory } from './ipc-bridge-transport.js';
import { readGatewayToken, saveGatewayToken, type TokenSource } from './token-storage.js';

export interface StartClientEnvironment {
  /** `window`: holds `hearth` inside Electron. */
  scope: { hearth?: unknown };
  location: { protocol: string; host: string; origin: string };
  tokens: TokenSource;
  WebSocket: WebSocketConstructor;
  platform: string;
  locale: string;
}

export interface StartedClient {
  client: GatewayClient;
  kind: 'ipc' | 'ws';
  /** The canvas' origin: the gateway's, which is the page's own except inside Electron. */
  gatewayOrigin?: string;
  /** Browser only: retry with a token the user pasted. */
  useToken?: (token: string) => void;
}

/** Picks the transport once, at start: the preload bridge when present, else a WebSocket to our own origin. */
export function startClient(env: StartClientEnvironment): StartedClient {
  const bridge = findBridge(env.scope);
  if (bridge) {
    const client = new GatewayClient({
      transport: createIpcTransportFactory(bridge),
      connectParams: () => buildUiConnectParams({ platform: env.platform, locale: env.locale }),
    });
    client.start();
    return { client, kind: 'ipc', gatewayOrigin: bridge.gatewayUrl };
  }
  let token = readGatewayToken(env.tokens);
  const url = gatewaySocketUrl(env.location);
  const transport: TransportFactory = () => createWebSocketTransport(url, env.WebSocket);
  const client = new GatewayClient({
    transport,
    connectParams: () => buildUiConnectParams({ token, platform: env.platform, locale: env.locale }),
  });
  client.start();
  return {
    client,
    kind: 'ws',
    useToken(next) {
      token = next;
      saveGatewayToken(env.tokens, next);
      client.stop();
      client.start();
    },
  };
}
