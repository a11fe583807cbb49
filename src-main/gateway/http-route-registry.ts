import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Disposable, toDisposable } from '../base/disposable.js';
import type { PeerInfo } from './auth/handshake.js';

/**
 * Answers a request it matched; the server has checked `Host` against its own names already and
 * says where the request came from as it does for a socket (`peer`: loopback, Origin).
 */
export type HttpRouteHandler = (request: IncomingMessage, response: ServerResponse, peer: PeerInfo) => Promise<void>;

export interface HttpRoute {
  /** Exact paths, or prefixes ending in "/" (`/v1/` matches `/v1/models`, not `/v1`). */
  paths: readonly string[];
  handle: HttpRouteHandler;
}

/**
 * HTTP routes that capabilities add to the gateway's one port (the OpenAI-compatible API, MCP
 * over HTTP). They are tried before the built-in routes (health, Control UI, canvas), any method.
 */
export class HttpRouteRegistry {
  private readonly routes: HttpRoute[] = [];

  add(route: HttpRoute): Disposable {
    this.routes.push(route);
    return toDisposable(() => {
      const index = this.routes.indexOf(route);
      if (index >= 0) this.routes.splice(index, 1);
    });
  }

  find(path: string): HttpRoute | undefined {
    return this.routes.find((route) => route.paths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p)));
  }
}
