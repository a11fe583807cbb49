import type { CallerIdentity } from '../gateway/caller.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { channelFor, type TurnChannel } from '../openai-api/index.js';
import type { GatewayClient } from '../protocol/client/index.js';
import { GatewayError } from '../protocol/index.js';

/**
 * The MCP server's view of Hearth: calls and events for one caller, and the scopes that caller
 * holds (a tool is offered only when they cover its method's scope). Over stdio it is a gateway
 * client on a socket; over HTTP (`/mcp`), the request's bearer identity on the gateway itself.
 */
export interface HearthConnection extends TurnChannel {
  readonly scopes: readonly string[];
}

/** A connected gateway client (`hearth mcp serve`); `scopes` is what its hello-ok granted. */
export function connectionFromClient(client: GatewayClient, scopes: readonly string[]): HearthConnection {
  return {
    scopes,
    async call(method, params) {
      try {
        // A turn's answer arrives as events; the call itself only starts it, so the default timeout holds.
        return { ok: true, payload: await client.call(method, params) };
      } catch (error) {
        if (error instanceof GatewayError) {
          return { ok: false, error: error.toWire() };
        }
        return { ok: false, error: { code: 'UNAVAILABLE', message: (error as Error).message } };
      }
    },
    subscribe: (listener) => client.onAnyEvent((frame) => listener(frame.event, frame.payload)),
  };
}

/** The gateway itself, for a caller with no socket (MCP over HTTP). */
export function connectionFromCore(
  core: Pick<GatewayCore, 'authenticateBearer' | 'callAs' | 'subscribeAs'>,
  caller: CallerIdentity,
): HearthConnection {
  return { scopes: caller.scopes, ...channelFor(core, caller) };
}
