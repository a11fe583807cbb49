import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type LookupFunction, type Socket } from 'node:net';
import type { AddressPolicy, ResolveAll, ResolvedAddress } from '../web/index.js';
import { BrowserError, checkedHost } from './address-check.js';

/**
 * Every request the browser makes goes through this loopback proxy (Chromium's
 * `--proxy-server`, loopback included): the page, its redirects, images, scripts, fetches,
 * WebSockets. Each host is resolved here and checked against the policy, and the connection
 * goes to the checked address. Route interception could not do this: Chromium follows
 * redirects without showing them to a route handler, and it resolves names itself afterwards.
 */
export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for Playwright's `proxy.server`. */
  readonly url: string;
  close(): Promise<void>;
}

export interface GuardProxyOptions {
  /** Read at each request, so a changed config applies at once. */
  policy: () => AddressPolicy;
  resolveAll?: ResolveAll;
  /** A refused request, said for the model (the tool reports it with its next result). */
  onRefusal(message: string): void;
}

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const check = async (host: string): Promise<ResolvedAddress | undefined> => {
    try {
      return await checkedHost(host, options.policy(), options.resolveAll);
    } catch (error) {
      options.onRefusal(error instanceof BrowserError ? error.message : String(error));
      return undefined;
    }
  };

  const server = createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Hearth browser proxy: absolute http URLs only');
      return;
    }
    const target = await check(url.hostname);
    if (!target) {
      res
        .writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-hearth-refused': '1' })
        .end(`Hearth refused to open ${url.href}: a private or loopback address (tools.browser)`);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
        lookup: pinned(target),
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.rawHeaders);
        response.pipe(res);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(`cannot reach ${url.host}: ${error.code ?? error}`);
    });
    req.pipe(upstream);
  });

  // HTTPS and WebSockets: a tunnel to the checked address, or a refusal.
  server.on('connect', async (req: IncomingMessage, client: Socket, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const { host, port } = splitHostPort(req.url ?? '');
    const target = host ? await check(host) : undefined;
    if (!target || !port) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect({ host: target.address, port, family: target.family });
    track(upstream);
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      upstream.destroy();
    });
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  server.on('connection', track);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the browser proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function pinned(target: ResolvedAddress): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** `host:443`, `[::1]:443` → host and port. */
function splitHostPort(authority: string): { host?: string; port?: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
  if (!match) return {};
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}
