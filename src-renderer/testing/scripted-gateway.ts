import { GatewayClient, type GatewayClientOptions } from '../../src-main/protocol/client/gateway-client.js';
import { createLoopbackPair, type LoopbackPeer } from '../../src-main/protocol/client/loopback-transport.js';
import type { HelloOk } from '../../src-main/protocol/connect.js';
import { GatewayError } from '../../src-main/protocol/errors.js';
import type { RequestFrame } from '../../src-main/protocol/frames.js';

export type Handler = (params: Record<string, unknown>) => unknown;

/**
 * A gateway for renderer tests, on the far end of a loopback transport: it sends the
 * challenge, answers `connect` with a hello, and answers methods from handlers (a thrown
 * GatewayError becomes an error response). Unknown methods get the gateway's own error.
 */
export class ScriptedGateway {
  private readonly handlers = new Map<string, Handler>();
  private peer: LoopbackPeer | undefined;
  private seq = 0;
  readonly requests: RequestFrame[] = [];
  refuseToken: string | undefined;

  constructor(handlers: Record<string, Handler> = {}) {
    for (const [method, handler] of Object.entries(handlers)) this.handlers.set(method, handler);
  }

  handle(method: string, handler: Handler): void {
    this.handlers.set(method, handler);
  }

  readonly transport = () => {
    const { transport, peer } = createLoopbackPair({
      onOpen: (p) =>
        p.send({ type: 'event', event: 'connect.challenge', payload: { nonce: 'n', ts: 1, capabilities: [] } }),
    });
    this.peer = peer;
    this.seq = 0;
    peer.onFrame((frame) => void this.answer(peer, frame));
    return transport;
  };

  emit(event: string, payload: unknown): void {
    this.peer?.send({ type: 'event', event, payload, seq: ++this.seq });
  }

  calls(method: string): Record<string, unknown>[] {
    return this.requests.filter((r) => r.method === method).map((r) => (r.params ?? {}) as Record<string, unknown>);
  }

  drop(code = 1012, reason = 'gateway restarting'): void {
    this.peer?.close(code, reason);
  }

  private async answer(peer: LoopbackPeer, frame: RequestFrame): Promise<void> {
    this.requests.push(frame);
    if (frame.method === 'connect') {
      const auth = (frame.params as { auth?: { token?: string } }).auth;
      if (this.refuseToken !== undefined && auth?.token === this.refuseToken) {
        peer.send({
          type: 'res',
          id: frame.id,
          ok: false,
          error: {
            code: 'INVALID_REQUEST',
            message: 'unauthorized: gateway token mismatch',
            details: { code: 'AUTH_TOKEN_MISMATCH' },
          },
        });
        peer.close(1008, 'unauthorized');
        return;
      }
      peer.send({ type: 'res', id: frame.id, ok: true, payload: testHello() });
      return;
    }
    const handler = this.handlers.get(frame.method);
    try {
      if (!handler) throw new GatewayError('INVALID_REQUEST', `unknown method: ${frame.method}`);
      const payload = await handler((frame.params ?? {}) as Record<string, unknown>);
      peer.send({ type: 'res', id: frame.id, ok: true, payload });
    } catch (error) {
      const wire =
        error instanceof GatewayError
          ? error.toWire()
          : { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
      peer.send({ type: 'res', id: frame.id, ok: false, error: wire });
    }
  }
}

export function testHello(): HelloOk {
  return {
    type: 'hello-ok',
    protocol: 4,
    server: { version: 'test', connId: 'c1' },
    features: { methods: [], events: [], capabilities: [] },
    snapshot: { presence: [], health: {}, stateVersion: { presence: 0, health: 0 }, uptimeMs: 0 },
    auth: { role: 'operator', scopes: ['operator.admin'], method: 'token' },
    policy: { maxPayload: 1_000_000, maxBufferedBytes: 1_000_000, tickIntervalMs: 0 },
  };
}

/** A started client over the scripted gateway, as the app would hold one. */
export function connectTestClient(
  gateway: ScriptedGateway,
  token = 'test-token',
  clock?: GatewayClientOptions['clock'],
): GatewayClient {
  const client = new GatewayClient({
    transport: gateway.transport,
    clock,
    connectParams: () => ({
      minProtocol: 4,
      maxProtocol: 4,
      client: { id: 'hearth-control-ui', mode: 'ui', version: 'test', platform: 'test' },
      auth: { token },
    }),
  });
  client.start();
  return client;
}
