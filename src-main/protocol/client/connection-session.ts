import type { Clock } from '../../base/clock.js';
import type { Disposable } from '../../base/disposable.js';
import type { ConnectChallenge, ConnectParams, HelloOk } from '../connect.js';
import { GatewayError } from '../errors.js';
import type { ClientFrame, EventFrame, ResponseFrame, ServerFrame } from '../frames.js';
import type { Transport, TransportCloseInfo } from './transport.js';

export interface ConnectionSessionOptions {
  transport: Transport;
  clock: Clock;
  newId: () => string;
  handshakeTimeoutMs: number;
  connectParams: (challenge: ConnectChallenge) => ConnectParams | Promise<ConnectParams>;
  onHello(hello: HelloOk): void;
  onConnectError(error: GatewayError): void;
  onResponse(frame: ResponseFrame): void;
  onEvent(frame: EventFrame): void;
  /** Fires exactly once per session. */
  onClose(info: TransportCloseInfo): void;
}

/** The client closes with 4000 after two silent tick intervals (PROTOCOL.md §1). */
export const tickTimeoutCloseCode = 4000;

/**
 * One transport's life: wait for the challenge, send `connect`, then pass frames up.
 * The client makes a new session for every (re)connect, so no state leaks across them.
 */
export class ConnectionSession {
  private connectId: string | undefined;
  private handshakeTimer: Disposable | undefined;
  private tickWatch: Disposable | undefined;
  private lastFrameAt = 0;
  private closed = false;
  private unsubscribe: (() => void)[] = [];
  ready = false;

  constructor(private readonly options: ConnectionSessionOptions) {}

  start(): void {
    const { transport, clock } = this.options;
    this.unsubscribe.push(transport.onFrame((frame) => this.handleFrame(frame)));
    this.unsubscribe.push(transport.onClose((info) => this.finish(info)));
    this.handshakeTimer = clock.setTimeout(
      () => this.close(1000, `no hello within ${this.options.handshakeTimeoutMs} ms`),
      this.options.handshakeTimeoutMs,
    );
    transport.open().catch((error: unknown) => {
      this.finish({ code: 1006, reason: error instanceof Error ? error.message : String(error) });
    });
  }

  send(frame: ClientFrame): void {
    if (!this.closed) this.options.transport.send(frame);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.options.transport.close(code, reason);
    // Some transports report close asynchronously or not at all once we closed them ourselves.
    this.finish({ code, reason });
  }

  private handleFrame(frame: ServerFrame): void {
    if (this.closed) return;
    this.lastFrameAt = this.options.clock.now();
    if (frame.type === 'event') {
      if (frame.event === 'connect.challenge' && !this.connectId) {
        void this.sendConnect(frame.payload as ConnectChallenge);
        return;
      }
      if (this.ready) this.options.onEvent(frame);
      return;
    }
    if (frame.id === this.connectId && !this.ready) {
      this.handleHelloResponse(frame);
      return;
    }
    this.options.onResponse(frame);
  }

  private async sendConnect(challenge: ConnectChallenge): Promise<void> {
    const id = this.options.newId();
    this.connectId = id;
    let params: ConnectParams;
    try {
      params = await this.options.connectParams(challenge);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.onConnectError(new GatewayError('INVALID_REQUEST', `could not build connect params: ${message}`));
      return;
    }
    this.send({ type: 'req', id, method: 'connect', params });
  }

  private handleHelloResponse(frame: ResponseFrame): void {
    this.handshakeTimer?.dispose();
    if (!frame.ok) {
      const error = frame.error ?? { code: 'INTERNAL', message: 'connect failed' };
      this.options.onConnectError(new GatewayError(error.code as GatewayError['code'], error.message, error.details));
      return;
    }
    const hello = frame.payload as HelloOk;
    this.ready = true;
    this.watchTicks(hello.policy?.tickIntervalMs);
    this.options.onHello(hello);
  }

  private watchTicks(tickIntervalMs: number | undefined): void {
    if (!tickIntervalMs || tickIntervalMs <= 0) return;
    const { clock } = this.options;
    this.lastFrameAt = clock.now();
    this.tickWatch = clock.setInterval(() => {
      if (clock.now() - this.lastFrameAt > tickIntervalMs * 2) {
        this.close(tickTimeoutCloseCode, 'tick timeout');
      }
    }, tickIntervalMs);
  }

  private finish(info: TransportCloseInfo): void {
    if (this.closed) return;
    this.closed = true;
    this.ready = false;
    this.handshakeTimer?.dispose();
    this.tickWatch?.dispose();
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    this.options.onClose(info);
  }
}
