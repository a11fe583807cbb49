import { type Clock, systemClock } from '../../base/clock.js';
import { type Disposable, DisposableStore, toDisposable } from '../../base/disposable.js';
import { Emitter, type Event } from '../../base/emitter.js';
import { type ConnectChallenge, type ConnectParams, type HelloOk, PROTOCOL_VERSION } from '../connect.js';
import { GatewayError } from '../errors.js';
import type { EventName, EventPayloads } from '../events.js';
import type { EventFrame, ResponseFrame } from '../frames.js';
import { isMethodName, type MethodName, type MethodResult, methodTable } from '../method-table.js';
import { type BackoffPolicy, backoffDelay, defaultBackoff } from './backoff.js';
import { ConnectionSession } from './connection-session.js';
import { type ConnectionState, isTerminalConnectError } from './connection-state.js';
import type { RequestOptions, RequestParams } from './request-options.js';
import type { TransportCloseInfo, TransportFactory } from './transport.js';

export interface GatewayClientOptions {
  transport: TransportFactory;
  /** Builds `connect` params from the challenge; may sign a device proof over its nonce and ts. */
  connectParams: (challenge: ConnectChallenge) => ConnectParams | Promise<ConnectParams>;
  clock?: Clock;
  /** [0, 1); jitter for reconnect delays. */
  random?: () => number;
  /** Request ids and idempotency keys. */
  newId?: () => string;
  requestTimeoutMs?: number;
  handshakeTimeoutMs?: number;
  backoff?: BackoffPolicy;
  /** Set false for one-shot callers (the CLI): a dropped connection then ends in `disconnected`. */
  reconnect?: boolean;
  onListenerError?: (error: unknown) => void;
  /** Which methods get an idempotency key; defaults to `spec.idempotent` in the method table. */
  isIdempotent?: (method: string) => boolean;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: Disposable;
  options: RequestOptions;
  /** The frame, until it has been handed to a live connection. */
  unsent?: { id: string; method: string; params: unknown };
}

type AnyEventListener = (frame: EventFrame) => void;

/**
 * The typed client of the gateway protocol (PROTOCOL.md): handshake, requests with
 * timeouts and idempotency keys, event fan-out, reconnect with backoff. Common code:
 * no DOM, no Node; everything that touches the outside comes in through options.
 */
export class GatewayClient implements Disposable {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly newId: () => string;
  private readonly store = new DisposableStore();
  private readonly stateEmitter: Emitter<ConnectionState>;
  private readonly connectedEmitter: Emitter<{ hello: HelloOk; reconnected: boolean }>;
  private readonly eventEmitter: Emitter<EventFrame>;
  private readonly pending = new Map<string, Pending>();
  private readonly kept = new Set<{ method: string; params: unknown }>();
  private session: ConnectionSession | undefined;
  private retryTimer: Disposable | undefined;
  private stopped = true;
  private everConnected = false;
  private current: ConnectionState = { status: 'idle', attempt: 0 };

  readonly onDidChangeState: Event<ConnectionState>;
  /** Fires after every hello-ok: stores refetch here, so a reconnect brings them up to date. */
  readonly onDidConnect: Event<{ hello: HelloOk; reconnected: boolean }>;

  constructor(private readonly options: GatewayClientOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.newId = options.newId ?? (() => globalThis.crypto.randomUUID());
    const report = options.onListenerError ?? (() => {});
    this.stateEmitter = this.store.add(new Emitter<ConnectionState>(report));
    this.connectedEmitter = this.store.add(new Emitter(report));
    this.eventEmitter = this.store.add(new Emitter<EventFrame>(report));
    this.onDidChangeState = this.stateEmitter.event;
    this.onDidConnect = this.connectedEmitter.event;
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** Connects (and keeps reconnecting) until stop(). Calling it again while running does nothing. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.setState({ status: 'connecting', attempt: 0 });
    this.openSession();
  }

  /** Closes the connection and fails every open request; start() may be called again later. */
  stop(): void {
    this.stopped = true;
    this.retryTimer?.dispose();
    this.retryTimer = undefined;
    const session = this.session;
    this.session = undefined;
    session?.close(1000, 'client stopped');
    this.failAll(new GatewayError('UNAVAILABLE', 'client stopped', { reason: 'client-stopped' }));
    this.setState({ status: 'disconnected', attempt: 0, lastError: this.current.lastError });
  }

  dispose(): void {
    this.stop();
    this.store.dispose();
  }

  /** Resolves with the hello of the next (or current) connection; rejects if the client gives up. */
  waitForConnected(): Promise<HelloOk> {
    const hello = this.current.hello;
    if (this.current.status === 'connected' && hello) return Promise.resolve(hello);
    return new Promise((resolve, reject) => {
      const listener = this.onDidChangeState((state) => {
        if (state.status === 'connected' && state.hello) {
          listener.dispose();
          resolve(state.hello);
        } else if (state.status === 'auth-failed' || state.status === 'disconnected') {
          listener.dispose();
          const error = state.lastError;
          reject(new GatewayError('UNAVAILABLE', error?.message ?? 'not connected', { code: error?.detailCode }));
        }
      });
    });
  }

  /** Typed call of a method in the table. */
  request<M extends MethodName>(
    method: M,
    params: RequestParams<M>,
    options?: RequestOptions,
  ): Promise<MethodResult<M>> {
    return this.call(method, params, options) as Promise<MethodResult<M>>;
  }

  /** Untyped call, for methods a newer gateway has that this build's table does not know yet. */
  call<T = unknown>(method: string, params?: unknown, options: RequestOptions = {}): Promise<T> {
    if (this.stopped) {
      return Promise.reject(new GatewayError('UNAVAILABLE', `cannot call ${method}: the client is not started`));
    }
    if (this.current.status === 'auth-failed') {
      const message = this.current.lastError?.message ?? 'authentication failed';
      return Promise.reject(new GatewayError('UNAVAILABLE', `cannot call ${method}: ${message}`));
    }
    const id = this.newId();
    const body = this.withIdempotencyKey(method, params);
    return new Promise<T>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? 30_000;
      const timer = this.clock.setTimeout(() => {
        this.pending.delete(id);
        reject(
          new GatewayError(
            'UNAVAILABLE',
            `${method} timed out after ${timeoutMs} ms`,
            { reason: 'timeout' },
            {
              retryable: true,
            },
          ),
        );
      }, timeoutMs);
      const entry: Pending = { method, resolve: resolve as (v: unknown) => void, reject, timer, options };
      this.pending.set(id, entry);
      if (this.session?.ready) this.session.send({ type: 'req', id, method, params: body });
      else entry.unsent = { id, method, params: body };
    });
  }

  /** Listens to one event; `connect.challenge` and `tick` are the client's own business but still delivered. */
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E], frame: EventFrame) => void): Disposable {
    return this.eventEmitter.event((frame) => {
      if (frame.event === event) listener(frame.payload as EventPayloads[E], frame);
    });
  }

  onAnyEvent(listener: AnyEventListener): Disposable {
    return this.eventEmitter.event(listener);
  }

  /** Calls `method` now (if connected) and again after every reconnect, until disposed. */
  keepSubscribed(method: string, params: unknown): Disposable {
    const entry = { method, params };
    this.kept.add(entry);
    if (this.current.status === 'connected') void this.call(method, params).catch(() => {});
    return toDisposable(() => this.kept.delete(entry));
  }

  private withIdempotencyKey(method: string, params: unknown): unknown {
    const idempotent = this.options.isIdempotent ?? tableSaysIdempotent;
    if (!idempotent(method)) return params;
    const object = (params ?? {}) as Record<string, unknown>;
    if (typeof object.idempotencyKey === 'string' && object.idempotencyKey !== '') return params;
    return { ...object, idempotencyKey: this.newId() };
  }

  private openSession(): void {
    const session = new ConnectionSession({
      transport: this.options.transport(),
      clock: this.clock,
      newId: this.newId,
      handshakeTimeoutMs: this.options.handshakeTimeoutMs ?? 15_000,
      connectParams: this.options.connectParams,
      onHello: (hello) => this.handleHello(session, hello),
      onConnectError: (error) => this.handleConnectError(session, error),
      onResponse: (frame) => this.handleResponse(frame),
      onEvent: (frame) => this.eventEmitter.fire(frame),
      onClose: (info) => this.handleClose(session, info),
    });
    this.session = session;
    session.start();
  }

  private handleHello(session: ConnectionSession, hello: HelloOk): void {
    if (session !== this.session) return;
    if (hello.protocol !== PROTOCOL_VERSION) {
      this.current = { ...this.current, lastError: { code: 'INVALID_REQUEST', message: 'protocol mismatch' } };
    }
    const reconnected = this.everConnected;
    this.everConnected = true;
    this.setState({ status: 'connected', attempt: 0, hello });
    for (const [id, entry] of this.pending) {
      if (!entry.unsent) continue;
      session.send({ type: 'req', id, method: entry.unsent.method, params: entry.unsent.params });
      entry.unsent = undefined;
    }
    for (const kept of this.kept) void this.call(kept.method, kept.params).catch(() => {});
    this.connectedEmitter.fire({ hello, reconnected });
  }

  private handleConnectError(session: ConnectionSession, error: GatewayError): void {
    if (session !== this.session) return;
    const detailCode = detailCodeOf(error.details);
    const lastError = { code: error.code, message: error.message, detailCode };
    if (isTerminalConnectError(error.code, detailCode)) {
      this.session = undefined;
      session.close(1000, 'connect refused');
      this.failAll(new GatewayError(error.code, error.message, error.details));
      this.setState({ status: 'auth-failed', attempt: this.current.attempt, lastError });
      return;
    }
    this.current = { ...this.current, lastError };
    session.close(1000, 'connect failed');
  }

  private handleResponse(frame: ResponseFrame): void {
    const entry = this.pending.get(frame.id);
    if (!entry) return;
    const payload = frame.payload as { status?: unknown } | undefined;
    if (frame.ok && entry.options.expectFinal && payload?.status === 'accepted') {
      entry.options.onAccepted?.(payload);
      return;
    }
    this.pending.delete(frame.id);
    entry.timer.dispose();
    if (frame.ok) entry.resolve(frame.payload);
    else {
      const wire = frame.error ?? { code: 'INTERNAL', message: `${entry.method} failed` };
      entry.reject(
        new GatewayError(wire.code as GatewayError['code'], wire.message, wire.details, {
          retryable: wire.retryable,
          retryAfterMs: wire.retryAfterMs,
        }),
      );
    }
  }

  private handleClose(session: ConnectionSession, info: TransportCloseInfo): void {
    if (session !== this.session) return;
    this.session = undefined;
    // Requests already on the wire may or may not have run: fail them (idempotency keys make a retry safe).
    // Requests never sent stay queued for the next connection.
    for (const [id, entry] of this.pending) {
      if (entry.unsent) continue;
      this.pending.delete(id);
      entry.timer.dispose();
      entry.reject(
        new GatewayError(
          'UNAVAILABLE',
          `connection lost during ${entry.method}`,
          { reason: 'connection-lost' },
          {
            retryable: true,
          },
        ),
      );
    }
    const lastError = this.current.lastError ?? {
      code: 'UNAVAILABLE',
      message: info.reason || `connection closed (${info.code})`,
    };
    if (this.stopped) return;
    if (this.options.reconnect === false) {
      this.stopped = true;
      this.failAll(new GatewayError('UNAVAILABLE', lastError.message));
      this.setState({ status: 'disconnected', attempt: 0, lastError });
      return;
    }
    const attempt = this.current.status === 'connected' ? 0 : this.current.attempt;
    const delay = backoffDelay(this.options.backoff ?? defaultBackoff, attempt, this.random);
    this.setState({ status: 'reconnecting', attempt: attempt + 1, lastError, nextRetryAt: this.clock.now() + delay });
    this.retryTimer = this.clock.setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.stopped) this.openSession();
    }, delay);
  }

  private failAll(error: GatewayError): void {
    for (const entry of this.pending.values()) {
      entry.timer.dispose();
      entry.reject(error);
    }
    this.pending.clear();
  }

  private setState(next: ConnectionState): void {
    this.current = next;
    this.stateEmitter.fire(next);
  }
}

function tableSaysIdempotent(method: string): boolean {
  return isMethodName(method) && Boolean(methodTable[method].idempotent);
}

function detailCodeOf(details: unknown): string | undefined {
  if (details && typeof details === 'object' && 'code' in details) {
    const code = (details as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
