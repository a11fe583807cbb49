import { GatewayClient } from '../../src-main/protocol/client/gateway-client.js';
import type { TransportFactory } from '../../src-main/protocol/client/transport.js';
import {
  createWebSocketTransport,
  type WebSocketConstructor,
} from '../../src-main/protocol/client/websocket-transport.js';
import { findBridge } from './bridge.js';
import { buildUiConnectParams } from './connect-params.js';
import type { DeviceCredentials } from './device-identity-credentials.js';
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
  /** A paired browser (phone): connects with its device key and token when it has one. */
  device?: DeviceCredentials;
  /** Browser only: do not connect yet (the page is about to pair with a setup code). */
  deferStart?: boolean;
}

export interface StartedClient {
  client: GatewayClient;
  kind: 'ipc' | 'ws';
  /** The canvas' origin: the gateway's, which is the page's own except inside Electron. */
  gatewayOrigin?: string;
  /** Browser only: retry with a token the user pasted. */
  useToken?: (token: string) => void;
  /** Browser only: connect again from scratch (after pairing stored a device token). */
  restart?: () => void;
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
    connectParams: (challenge) => {
      if (env.device?.token()) return env.device.connectParams(challenge, env);
      return buildUiConnectParams({ token, platform: env.platform, locale: env.locale });
    },
  });
  if (!env.deferStart) client.start();
  return {
    client,
    kind: 'ws',
    restart() {
      client.stop();
      client.start();
    },
    useToken(next) {
      token = next;
      saveGatewayToken(env.tokens, next);
      // A pasted gateway token is the user's choice over a device token that stopped working.
      env.device?.forgetToken();
      client.stop();
      client.start();
    },
  };
}
