import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import { gatewayTokenPath } from '../gateway/auth/gateway-secret.js';
import { openHearthConfig } from '../host/hearth-config.js';
import { HEARTH_VERSION } from '../host/version.js';
import type { HearthPaths } from '../paths/index.js';
import { createWebSocketTransport, GatewayClient, type WebSocketConstructor } from '../protocol/client/index.js';
import { type ConnectParams, fullOperatorScopes } from '../protocol/index.js';
import { CliError } from './cli-context.js';
import { assertTransportAllowed, type PinCheck, pinnedWebSocket } from './pinned-websocket.js';
import { type ClientDevice, cliConnectParams } from './remote-identity.js';

export interface GatewayTarget {
  url: string;
  token?: string;
}

/** The local gateway's URL and token, from HEARTH_HOME (what `hearth gateway call` uses by default). */
export async function localGatewayTarget(
  paths: HearthPaths,
  overrides: { url?: string; token?: string; env: Record<string, string | undefined> },
): Promise<GatewayTarget> {
  let url = overrides.url;
  if (!url) {
    const config = await openHearthConfig({
      path: paths.configFile,
      clock: systemClock,
      log: silentLogger,
      watch: false,
    }).catch(() => undefined);
    const port = overrides.env.HEARTH_PORT ?? String(config?.current.gateway.port ?? 18_790);
    const tls = config?.current.gateway.tls.enabled === true;
    config?.dispose();
    url = `${tls ? 'wss' : 'ws'}://127.0.0.1:${port}`;
  }
  let token = overrides.token ?? overrides.env.HEARTH_GATEWAY_TOKEN;
  if (!token) token = (await readFile(gatewayTokenPath(paths.identityDir), 'utf8').catch(() => '')).trim() || undefined;
  return { url, token };
}

export interface RemoteAuth {
  device: ClientDevice;
  /** SHA-256 pin of the gateway's certificate. */
  pin: string;
  auth: { deviceToken?: string; bootstrapToken?: string };
}

export interface ConnectOptions {
  scopes?: string[];
  timeoutMs?: number;
  /** A paired (or pairing) remote gateway: device proof + pinned TLS. */
  remote?: RemoteAuth;
}

export class GatewayRefusal extends CliError {
  constructor(
    message: string,
    readonly detailCode: string | undefined,
    readonly details: unknown,
  ) {
    super(message);
  }
}

/** A one-shot protocol client for CLI commands; throws CliError with the gateway's own words on refusal. */
export async function connectToGateway(target: GatewayTarget, options: ConnectOptions = {}): Promise<GatewayClient> {
  try {
    assertTransportAllowed(target.url);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const pinCheck: PinCheck = {};
  const remote = options.remote;
  const Impl = remote ? pinnedWebSocket(remote.pin, pinCheck) : (WebSocket as unknown as WebSocketConstructor);
  const scopes = options.scopes ?? fullOperatorScopes;
  let lastRefusal: { message: string; detailCode?: string; details?: unknown } | undefined;
  const client = new GatewayClient({
    transport: () => createWebSocketTransport(target.url, Impl),
    reconnect: false,
    requestTimeoutMs: options.timeoutMs ?? 30_000,
    connectParams: (challenge): ConnectParams =>
      remote
        ? cliConnectParams(remote.device, challenge, {
            version: HEARTH_VERSION,
            platform: process.platform,
            role: 'operator',
            scopes,
            auth: remote.auth,
          })
        : {
            minProtocol: 4,
            maxProtocol: 4,
            client: {
              id: 'cli',
              version: HEARTH_VERSION,
              platform: process.platform,
              mode: 'cli',
              instanceId: randomUUID(),
            },
            caps: [],
            role: 'operator',
            scopes,
            auth: target.token ? { token: target.token } : {},
          },
  });
  const stateWatch = client.onDidChangeState((state) => {
    if (state.lastError) lastRefusal = { message: state.lastError.message, detailCode: state.lastError.detailCode };
  });
  client.start();
  try {
    await client.waitForConnected();
  } catch (error) {
    client.dispose();
    if (pinCheck.failure) throw new CliError(pinCheck.failure);
    const reason = lastRefusal?.message ?? client.state.lastError?.message ?? (error as Error).message;
    if (/ECONNREFUSED|cannot connect|closed|1006/.test(reason) && !lastRefusal?.detailCode) {
      throw new CliError(
        `cannot reach the gateway at ${target.url}: is it running? (start it with \`hearth gateway run\`)`,
      );
    }
    throw new GatewayRefusal(
      `the gateway at ${target.url} refused the connection: ${reason}`,
      lastRefusal?.detailCode,
      lastRefusal?.details,
    );
  } finally {
    stateWatch.dispose();
  }
  return client;
}
