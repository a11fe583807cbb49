import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import { Emitter, type Logger } from '../base/index.js';
import type { InProcessConnection, InProcessGateway } from '../gateway/in-process-transport.js';
import type { ConnectChallenge, HelloOk, ServerFrame } from '../protocol/index.js';
import {
  desktopConnectParams,
  type RemoteGatewayIdentity,
  type RemoteGatewayRecord,
} from './remote-gateway-identity.js';
import { CertificatePinError, openPinnedSocket } from './remote-gateway-socket.js';

export interface RemoteRelayDeps {
  gateway: RemoteGatewayRecord;
  identity: RemoteGatewayIdentity;
  version: string;
  platform: string;
  logger: Logger;
  /** Told when a connection could not be made (certificate, unreachable) or is made again, for the gateway indicator. */
  onProblem?(problem: string | undefined): void;
}

/** Refusals the relay makes itself, answered to the window's `connect` so its connection badge says why. */
export const PIN_MISMATCH_CODE = 'AUTH_TLS_PIN_MISMATCH';
export const UNREACHABLE_CODE = 'REMOTE_GATEWAY_UNREACHABLE';

/**
 * The window's gateway when the desktop uses another machine's gateway: each window
 * connection becomes a WebSocket to that gateway over TLS pinned to its certificate.
 * Frames go through unchanged except the window's `connect`, which the relay answers
 * with this desktop's own device proof and the device token from the secret store
 * (the page never sees either, and could not sign for the desktop's key). The window
 * keeps the in-process protocol it already speaks, so nothing in it changes.
 */
export function createRemoteRelay(deps: RemoteRelayDeps): InProcessGateway {
  const log = deps.logger.child({ component: 'remote-relay', gateway: deps.gateway.id });
  return {
    connectInProcess(): InProcessConnection {
      const frames = new Emitter<ServerFrame>();
      let resolveClosed!: (info: { code: number; reason: string }) => void;
      const closed = new Promise<{ code: number; reason: string }>((resolve) => {
        resolveClosed = resolve;
      });
      let socket: WebSocket | undefined;
      let challenge: ConnectChallenge | undefined;
      let failure: { message: string; code: string } | undefined;
      let ended = false;
      const pendingFromWindow: unknown[] = [];
      const end = (code: number, reason: string) => {
        if (ended) return;
        ended = true;
        socket?.close(code === 1006 ? 1000 : code, reason.slice(0, 120));
        resolveClosed({ code, reason });
        // Nothing more comes on this connection: release the window's frame subscriptions with it.
        frames.dispose();
      };
      const deliver = (frame: ServerFrame) => {
        if (!ended) frames.fire(frame);
      };
      const fromWindow = async (frame: unknown) => {
        const request = frame as { type?: string; id?: string; method?: string; params?: { locale?: string } };
        if (request.method === 'connect') {
          if (failure) {
            // Answer the window's connect with why there is no gateway, then end this connection.
            deliver({
              type: 'res',
              id: request.id ?? '',
              ok: false,
              error: { code: 'UNAVAILABLE', message: failure.message, details: { code: failure.code } },
            });
            end(1000, failure.message);
            return;
          }
          if (!socket || !challenge) return;
          const token = await deps.identity.token(deps.gateway.id);
          const device = await deps.identity.device();
          const params = desktopConnectParams(device, challenge, {
            version: deps.version,
            platform: deps.platform,
            scopes: deps.gateway.scopes,
            auth: token ? { deviceToken: token } : {},
            locale: typeof request.params?.locale === 'string' ? request.params.locale : undefined,
          });
          socket.send(JSON.stringify({ type: 'req', id: request.id, method: 'connect', params }));
          return;
        }
        socket?.send(JSON.stringify(frame));
      };
      const connection: InProcessConnection = {
        connId: `remote-${randomUUID()}`,
        send(frame) {
          if (ended) return;
          if (!socket && !failure) {
            pendingFromWindow.push(frame);
            return;
          }
          void fromWindow(frame).catch((error: unknown) => end(1011, `relay failed: ${String(error)}`));
        },
        onFrame(listener) {
          return frames.event(listener);
        },
        closed,
        dispose() {
          end(1000, 'window connection closed');
        },
      };
      const flush = () => {
        for (const frame of pendingFromWindow.splice(0)) connection.send(frame);
      };
      openFirstAddress(deps.gateway).then(
        (opened) => {
          if (ended) {
            opened.close(1000, 'window connection closed');
            return;
          }
          socket = opened;
          deps.onProblem?.(undefined);
          opened.on('message', (data) => {
            let frame: ServerFrame;
            try {
              frame = JSON.parse(data.toString()) as ServerFrame;
            } catch {
              log.warn('dropped a frame that is not JSON from the remote gateway');
              return;
            }
            if (frame.type === 'event' && frame.event === 'connect.challenge') {
              challenge = frame.payload as ConnectChallenge;
            }
            if (frame.type === 'res' && frame.ok) {
              const hello = frame.payload as Partial<HelloOk> | undefined;
              // A token the gateway hands over on connect (issued or rotated) replaces the stored one.
              const issued = hello?.type === 'hello-ok' ? hello.auth?.deviceToken : undefined;
              if (issued && hello?.auth) {
                void deps.identity.saveToken(deps.gateway.id, issued);
                // The page never holds the desktop's credentials: the token stays in main's secret store.
                const { deviceToken: _kept, ...auth } = hello.auth;
                frame = { ...frame, payload: { ...hello, auth } };
              }
            }
            deliver(frame);
          });
          opened.on('close', (code, reason) =>
            end(code, reason.toString() || 'the remote gateway closed the connection'),
          );
          opened.on('error', (error) => log.warn('remote gateway socket error', { error: error.message }));
          flush();
        },
        (error: unknown) => {
          const pin = error instanceof CertificatePinError;
          failure = {
            message: error instanceof Error ? error.message : String(error),
            code: pin ? PIN_MISMATCH_CODE : UNREACHABLE_CODE,
          };
          log.warn(pin ? 'refused a remote gateway certificate' : 'remote gateway unreachable', {
            error: failure.message,
          });
          deps.onProblem?.(failure.message);
          // The window waits for a challenge before it sends connect: give it one, then refuse that connect.
          deliver({
            type: 'event',
            event: 'connect.challenge',
            payload: { nonce: randomUUID(), ts: Date.now(), capabilities: [] },
          });
          flush();
        },
      );
      return connection;
    },
  };
}

/**
 * The code's addresses in order (the one that answered at pairing first): a laptop that changed
 * network may answer on another. A certificate that does not match the pin ends the search at once.
 */
async function openFirstAddress(gateway: RemoteGatewayRecord): Promise<WebSocket> {
  let last: unknown;
  for (const url of gateway.urls) {
    try {
      return await openPinnedSocket(url, { pin: gateway.tlsFingerprint });
    } catch (error) {
      if (error instanceof CertificatePinError) throw error;
      last = error;
    }
  }
  throw last instanceof Error ? last : new Error(`cannot reach ${gateway.urls.join(', ')}`);
}
