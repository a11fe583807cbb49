import { GatewayClient } from '../../src-main/protocol/client/gateway-client.js';
import type { TransportFactory } from '../../src-main/protocol/client/transport.js';
import {
  createWebSocketTransport,
  type WebSocketConstructor,
} from '../../src-main/protocol/client/websocket-transport.js';
import { findBridge } from './bridge.js';
import { buildUiConnectParams, CONTROL_UI_SCOPES } from './connect-params.js';
import type { DeviceCredentials } from './device-identity-credentials.js';
import { gatewaySocketUrl } from './gateway-url.js';
import { createIpcTransportFactory } from './ipc-bridge-transport.js';
import { type TokenSource, takeGatewayToken } from './token-storage.js';

export interface StartClientEnvironment {
  /** `window`: holds `hearth` inside Electron. */
  scope: { hearth?: unknown };
  location: { protocol: string; host: string; origin: string };
  tokens: TokenSource;
  WebSocket: WebSocketConstructor;
  platform: string;
  locale: string;
  /** This browser's device key and token: a paired phone, or a browser signed in once with the gateway token. */
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

/** Refusals of a stored device token: the gateway removed the device or revoked its token. */
const DEAD_DEVICE_TOKEN = new Set(['AUTH_DEVICE_TOKEN_MISMATCH', 'AUTH_SCOPE_MISMATCH']);

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
  // In memory only, and only until the gateway has issued this browser a device token.
  let gatewayToken = takeGatewayToken(env.tokens);
  const url = gatewaySocketUrl(env.location);
  const transport: TransportFactory = () => createWebSocketTransport(url, env.WebSocket);
  const device = env.device;
  const client = new GatewayClient({
    transport,
    connectParams: async (challenge) => {
      if (device && gatewayToken) {
        try {
          return await device.connectParams(challenge, env, { gatewayToken, scopes: CONTROL_UI_SCOPES });
        } catch {
          // No device key here (no WebCrypto outside a secure context): the token alone, still in memory only.
          return buildUiConnectParams({ token: gatewayToken, platform: env.platform, locale: env.locale });
        }
      }
      if (device?.token()) return device.connectParams(challenge, env);
      return buildUiConnectParams({ token: gatewayToken, platform: env.platform, locale: env.locale });
    },
  });
  client.onDidConnect(({ hello }) => {
    const issued = hello.auth.deviceToken;
    if (!issued || !device) return;
    // Signed in with the gateway token: from now on the device key and this token; the gateway token is dropped.
    device.saveToken(issued, {
      scopes: [...hello.auth.scopes],
      source: gatewayToken !== undefined ? 'sign-in' : device.source(),
    });
    gatewayToken = undefined;
  });
  client.onDidChangeState((state) => {
    // A signed-in browser whose device was removed on the desktop: back to the token prompt (a phone re-pairs instead).
    if (state.status !== 'auth-failed' || !device?.token() || device.source() !== 'sign-in') return;
    if (DEAD_DEVICE_TOKEN.has(state.lastError?.detailCode ?? '')) device.forgetToken();
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
      // A pasted gateway token is the user's choice over a device token that stopped working.
      gatewayToken = next.trim() || undefined;
      device?.forgetToken();
      client.stop();
      client.start();
    },
  };
}
