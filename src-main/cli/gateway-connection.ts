import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import { ConfigService, type HearthPaths } from '../config/index.js';
import { gatewayTokenPath } from '../gateway/auth/gateway-secret.js';
import { HEARTH_VERSION } from '../host/version.js';
import { createWebSocketTransport, GatewayClient, type WebSocketConstructor } from '../protocol/client/index.js';
import { type ConnectParams, fullOperatorScopes } from '../protocol/index.js';
import { CliError } from './cli-context.js';

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
    const config = await ConfigService.open({
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

export interface ConnectOptions {
  scopes?: string[];
  /** Extra ws options (TLS pinning for paired remote gateways). */
  wsOptions?: WebSocket.ClientOptions;
  timeoutMs?: number;
}

/** A one-shot protocol client for CLI commands; throws CliError with the gateway's own words on refusal. */
export async function connectToGateway(target: GatewayTarget, options: ConnectOptions = {}): Promise<GatewayClient> {
  const wsOptions = options.wsOptions;
  const Impl = class extends WebSocket {
    constructor(url: string) {
      super(url, wsOptions);
    }
  } as unknown as WebSocketConstructor;
  const client = new GatewayClient({
    transport: () => createWebSocketTransport(target.url, Impl),
    reconnect: false,
    requestTimeoutMs: options.timeoutMs ?? 30_000,
    connectParams: (): ConnectParams => ({
      minProtocol: 4,
      maxProtocol: 4,
      client: { id: 'cli', version: HEARTH_VERSION, platform: process.platform, mode: 'cli', instanceId: randomUUID() },
      caps: [],
      role: 'operator',
      scopes: options.scopes ?? fullOperatorScopes,
      auth: target.token ? { token: target.token } : {},
    }),
  });
  client.start();
  try {
    await client.waitForConnected();
  } catch (error) {
    client.dispose();
    const reason = client.state.lastError?.message ?? (error as Error).message;
    if (/ECONNREFUSED|closed|1006/.test(reason)) {
      throw new CliError(
        `cannot reach the gateway at ${target.url}: is it running? (start it with \`hearth gateway run\`)`,
      );
    }
    throw new CliError(`the gateway at ${target.url} refused the connection: ${reason}`);
  }
  return client;
}
