import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { Logger } from '../base/logger.js';
import { closeCodes } from '../protocol/index.js';
import type { PeerInfo } from './auth/handshake.js';
import { DESKTOP_APP_ORIGIN, isOwnOrigin, type OwnOriginPolicy } from './auth/own-origins.js';
import type { GatewayCore } from './gateway-core.js';
import { createHttpHandler, type HttpRoutesOptions } from './http-routes.js';
import { createListenerNames } from './listener-names.js';

export interface GatewayServerOptions {
  core: GatewayCore;
  host: string;
  port: number;
  tls?: { cert: string; key: string };
  routes: HttpRoutesOptions;
  log: Logger;
  /** The LAN listener: every peer is remote (pairing, rate limits), even over loopback. */
  treatPeersAsRemote?: boolean;
  /** Names besides loopback and the bound address that `Host` may carry (gateway.tls.hostnames). */
  hostnames?: readonly string[];
}

export interface GatewayServer {
  readonly port: number;
  readonly host: string;
  readonly url: string;
  readonly wsUrl: string;
  close(): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`port ${port} on ${host} is already in use`);
    this.name = 'PortInUseError';
  }
}

export class InsecureBindError extends Error {
  constructor(readonly host: string) {
    super(`refusing to listen on ${host} without TLS: plaintext ws:// is allowed on loopback only`);
    this.name = 'InsecureBindError';
  }
}

export function isLoopbackAddress(address: string): boolean {
  const bare = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (bare === '::1' || bare === 'localhost') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

function isLocalHostHeader(host: string | undefined): boolean {
  if (!host) return true;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.split(':')[0]!;
  return name === 'localhost' || isLoopbackAddress(name);
}

/**
 * Classifies where an upgrade came from (PROTOCOL.md §4 "Direct local"). The Origin is
 * the browser's word and is compared with the listener's own origins (own-origins.ts);
 * the Host header never makes an origin "own" (a DNS-rebound page controls both).
 */
export function peerInfoFor(request: IncomingMessage, ownOrigin: OwnOriginPolicy): PeerInfo {
  const remoteAddress = request.socket.remoteAddress ?? 'unknown';
  const forwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'].some(
    (h) => request.headers[h] !== undefined,
  );
  const isDirectLocal = isLoopbackAddress(remoteAddress) && !forwarded && isLocalHostHeader(request.headers.host);
  // Any Origin, even "null" (sandboxed frames, file: pages), means a browser page sent it.
  const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
  const isOwnControlUi = origin !== undefined && isOwnOrigin(origin, ownOrigin);
  return { remoteAddress, isDirectLocal, origin, isOwnControlUi };
}

/** The one port: HTTP (health, Control UI, canvas) and the WebSocket gateway. */
export async function startGatewayServer(options: GatewayServerOptions): Promise<GatewayServer> {
  const { core, host, log } = options;
  if (!isLoopbackAddress(host) && !options.tls) throw new InsecureBindError(host);
  let listeningPort = options.port;
  const names = createListenerNames({
    bindHost: host,
    port: () => listeningPort,
    tls: options.tls !== undefined,
    hostnames: options.hostnames,
  });
  const handler = createHttpHandler({ ...options.routes, tls: options.tls !== undefined });
  const onRequest = (request: IncomingMessage, response: import('node:http').ServerResponse) => {
    // Before any route: a page reaching us under a foreign name (DNS rebinding) reads nothing.
    if (!names.allows(request.headers.host)) {
      response.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end('421 Misdirected Request: this gateway answers only to its own host names\n');
      return;
    }
    const added = core.httpRoutes.find(new URL(request.url ?? '/', 'http://gateway.invalid').pathname);
    (added ? added.handle(request, response, peerOf(request)) : handler(request, response)).catch((error) => {
      log.error('http handler failed', { error: String(error) });
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  };
  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, onRequest)
    : createHttpServer(onRequest);
  // ws (~67 KB, and the https/zlib it imports) is compiled on the first WebSocket upgrade, not
  // before the port opens: the first HTTP answer does not wait for it (#23).
  let wss: Promise<WebSocketServer> | undefined;
  const webSocketServer = () =>
    (wss ??= import('ws').then(
      ({ WebSocketServer }) =>
        new WebSocketServer({ noServer: true, maxPayload: core.policy.maxPayload, perMessageDeflate: false }),
    ));
  const ownOrigin: OwnOriginPolicy = {
    tls: options.tls !== undefined,
    names,
    // The desktop window's origin counts only where the desktop is: the loopback listener.
    extraOrigins: isLoopbackAddress(host) && !options.treatPeersAsRemote ? [DESKTOP_APP_ORIGIN] : [],
  };

  const peerOf = (request: IncomingMessage): PeerInfo =>
    options.treatPeersAsRemote
      ? { ...peerInfoFor(request, ownOrigin), isDirectLocal: false }
      : peerInfoFor(request, ownOrigin);

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!names.allows(request.headers.host)) {
      socket.end('HTTP/1.1 421 Misdirected Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // Until ws takes the socket, an error on it (the peer went away) must not go unhandled.
    const destroyOnError = () => socket.destroy();
    socket.on('error', destroyOnError);
    webSocketServer()
      .then((sockets) => {
        socket.off('error', destroyOnError);
        upgrade(sockets, request, socket, head);
      })
      .catch((error) => {
        log.error('websocket server failed to load', { error: String(error) });
        socket.destroy();
      });
  });

  const upgrade = (sockets: WebSocketServer, request: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const connection = core.attach(
        {
          send: (frame) => ws.send(JSON.stringify(frame)),
          close: (code, reason) => ws.close(code, reason),
          bufferedAmount: () => ws.bufferedAmount,
        },
        peerOf(request),
      );
      ws.on('message', (data, isBinary) => {
        if (isBinary) return connection.close(closeCodes.policyViolation, 'binary frames are not supported');
        const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        connection.receiveText(buffer.toString('utf8'), buffer.length);
      });
      ws.on('close', (code, reason) => connection.transportClosed(code, reason.toString()));
      ws.on('error', (error) => {
        log.debug('websocket error', { error: String(error) });
        connection.transportClosed(closeCodes.tooBig, String(error));
      });
    });
  };

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, options.port) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options.port, host);
  });
  server.on('error', (error) => log.error('gateway server error', { error: String(error) }));

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  listeningPort = port;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const scheme = options.tls ? 'https' : 'http';
  return {
    port,
    host,
    url: `${scheme}://${hostForUrl}:${port}`,
    wsUrl: `${options.tls ? 'wss' : 'ws'}://${hostForUrl}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        const closeSockets = (sockets: WebSocketServer | undefined) => {
          for (const client of sockets?.clients ?? []) client.terminate();
          sockets?.close();
        };
        void (wss ?? Promise.resolve(undefined)).catch(() => undefined).then(closeSockets);
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
