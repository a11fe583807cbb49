import { randomUUID } from 'node:crypto';
import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import {
  closeCodes,
  connectParamsSchema,
  type EventFrame,
  formatIssues,
  gatewayPolicyDefaults,
  type HelloOk,
  type ParsedClientFrame,
  parseClientFrame,
  parseClientFrameValue,
  type RequestFrame,
  type ResponseFrame,
  type ServerFrame,
  type WireError,
} from '../protocol/index.js';
import { parseTolerant } from '../protocol/tolerant-params.js';
import type { AcceptedIdentity, HandshakeResult, PeerInfo } from './auth/handshake.js';
import type { CallerIdentity } from './caller.js';
import { type CallContext, type DispatchOutcome, toWireError } from './method-router.js';
import { assertParamsShape, paramsShapeLimits } from './params-shape.js';
import type { ToleranceReporter } from './tolerance-log.js';

/** What carries frames: a WebSocket or the in-process (IPC) bridge. */
export interface FrameTransport {
  /** Delivers one server frame. */
  send(frame: ServerFrame): void;
  close(code: number, reason: string): void;
  /** Bytes queued but not yet written (for slow-consumer handling). */
  bufferedAmount(): number;
}

/** What a Connection needs from the gateway around it. */
export interface ConnectionHost {
  clock: Clock;
  log: Logger;
  challengeCapabilities: string[];
  /** Unknown connect fields were dropped (a newer client release); for a debug log. */
  tolerated?: ToleranceReporter;
  authenticate(params: unknown, challengeNonce: string, peer: PeerInfo): Promise<HandshakeResult>;
  buildHello(connection: Connection, identity: AcceptedIdentity): HelloOk;
  dispatch(method: string, params: unknown, call: CallContext): Promise<DispatchOutcome>;
  onConnected(connection: Connection): void;
  onClosed(connection: Connection): void;
  policy: { maxPayload: number; maxBufferedBytes: number; preConnectMaxPayload: number; handshakeTimeoutMs: number };
}

type State = 'awaiting-connect' | 'authenticating' | 'connected' | 'closed';

const MAX_QUEUED_DURING_CONNECT = 15;

/**
 * One client, whatever carried it. Enforces the handshake (challenge first, `connect`
 * first, no half-open sockets), frame limits, event sequencing and backpressure.
 */
export class Connection {
  readonly connId = randomUUID();
  private state: State = 'awaiting-connect';
  private readonly nonce = randomUUID();
  private seq = 0;
  private identity: CallerIdentity | undefined;
  private readonly queued: RequestFrame[] = [];
  private readonly inFlight = new Set<AbortController>();
  private readonly handshakeTimer: Disposable;
  private closeListeners: ((code: number, reason: string) => void)[] = [];

  constructor(
    private readonly transport: FrameTransport,
    readonly peer: PeerInfo,
    private readonly host: ConnectionHost,
  ) {
    this.emitRaw({
      type: 'event',
      event: 'connect.challenge',
      payload: { nonce: this.nonce, ts: host.clock.now(), capabilities: host.challengeCapabilities },
    });
    this.handshakeTimer = host.clock.setTimeout(() => {
      if (this.state === 'awaiting-connect' || this.state === 'authenticating')
        this.close(closeCodes.normal, 'handshake timeout');
    }, host.policy.handshakeTimeoutMs);
  }

  get caller(): CallerIdentity | undefined {
    return this.identity;
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  onClose(listener: (code: number, reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  /** Text off a WebSocket. */
  receiveText(text: string, byteLength: number): void {
    if (this.state === 'closed') return;
    const limit = this.state === 'connected' ? this.host.policy.maxPayload : this.host.policy.preConnectMaxPayload;
    if (byteLength > limit) return this.close(closeCodes.tooBig, 'frame too large');
    this.receiveParsed(parseClientFrame(text), text);
  }

  /** A structured value from the in-process bridge. */
  receiveValue(value: unknown): void {
    if (this.state === 'closed') return;
    // A structured clone can be nested past what JSON.stringify survives: bound it first,
    // and answer a request that is too complex with a coded error, as over a socket.
    const shapeProblem = frameShapeProblem(value);
    if (shapeProblem) {
      const id = idOf(value);
      if (this.state === 'connected' && id) return this.respond(id, { ok: false, error: shapeProblem });
      return this.close(closeCodes.policyViolation, 'invalid request frame: too complex');
    }
    let size: number;
    try {
      size = JSON.stringify(value ?? null).length;
    } catch {
      return this.close(closeCodes.policyViolation, 'invalid request frame: not serialisable');
    }
    const limit = this.state === 'connected' ? this.host.policy.maxPayload : this.host.policy.preConnectMaxPayload;
    if (size > limit) return this.close(closeCodes.tooBig, 'frame too large');
    this.receiveParsed(parseClientFrameValue(value), value);
  }

  private receiveParsed(parsed: ParsedClientFrame, raw: unknown): void {
    if (parsed.kind === 'not-json') {
      return this.close(
        this.state === 'connected' ? closeCodes.policyViolation : closeCodes.normal,
        'invalid frame: not JSON',
      );
    }
    if (parsed.kind === 'invalid') {
      const id = idOf(raw);
      if (this.state === 'connected' && id) {
        return this.respond(id, {
          ok: false,
          error: { code: 'INVALID_REQUEST', message: `invalid request frame: ${parsed.reason}` },
        });
      }
      return this.close(closeCodes.policyViolation, 'invalid request frame');
    }
    const frame = parsed.frame;
    switch (this.state) {
      case 'awaiting-connect':
        return void this.handleConnect(frame);
      case 'authenticating':
        if (this.queued.length >= MAX_QUEUED_DURING_CONNECT)
          return this.close(closeCodes.policyViolation, 'too many frames during connect');
        this.queued.push(frame);
        return;
      case 'connected':
        return void this.handleRequest(frame);
      case 'closed':
        return;
    }
  }

  private async handleConnect(frame: RequestFrame): Promise<void> {
    if (frame.method !== 'connect') {
      this.respond(frame.id, {
        ok: false,
        error: { code: 'INVALID_REQUEST', message: 'invalid handshake: first request must be connect' },
      });
      return this.close(closeCodes.policyViolation, 'invalid handshake');
    }
    // Newer clients add fields (OpenClaw's UI sends client.buildId, client.timeZone, modelCatalog): ignored, not refused.
    const shapeProblem = paramsShapeProblem(frame.params);
    if (shapeProblem) {
      this.respond(frame.id, { ok: false, error: shapeProblem });
      return this.close(closeCodes.policyViolation, 'invalid connect params');
    }
    const parsed = parseTolerant(connectParamsSchema, frame.params ?? {});
    if (!parsed.success) {
      this.respond(frame.id, {
        ok: false,
        error: { code: 'INVALID_REQUEST', message: `invalid connect params: ${formatIssues(parsed.issues)}` },
      });
      return this.close(closeCodes.policyViolation, 'invalid connect params');
    }
    if (parsed.ignored.length > 0) this.host.tolerated?.('connect', parsed);
    this.state = 'authenticating';
    let result: HandshakeResult;
    try {
      result = await this.host.authenticate(parsed.data, this.nonce, this.peer);
    } catch (error) {
      this.host.log.error('handshake failed unexpectedly', { error: String(error) });
      result = {
        ok: false,
        error: { code: 'UNAVAILABLE', message: 'gateway could not complete the handshake', retryable: true },
        closeCode: closeCodes.restart,
      };
    }
    if (this.state !== 'authenticating') return;
    if (!result.ok) {
      this.respond(frame.id, { ok: false, error: result.error });
      return this.close(result.closeCode, result.error.message.slice(0, 120));
    }
    const { client } = parsed.data;
    this.identity = {
      connId: this.connId,
      role: result.identity.role,
      scopes: Object.freeze([...result.identity.scopes]),
      clientId: client.id,
      clientMode: client.mode,
      displayName: client.displayName,
      platform: client.platform,
      deviceId: result.identity.deviceId,
      authMethod: result.identity.method,
      isLocal: this.peer.isDirectLocal || this.peer.trustedInProcess === true,
      person: result.identity.person,
      remoteAddress: this.peer.remoteAddress,
      caps: parsed.data.caps ?? [],
    };
    this.handshakeTimer.dispose();
    this.state = 'connected';
    this.respond(frame.id, { ok: true, payload: this.host.buildHello(this, result.identity) });
    this.host.onConnected(this);
    for (const queued of this.queued.splice(0)) void this.handleRequest(queued);
  }

  private async handleRequest(frame: RequestFrame): Promise<void> {
    const caller = this.identity;
    if (!caller) return;
    if (frame.method === 'connect') {
      return this.respond(frame.id, { ok: false, error: { code: 'INVALID_REQUEST', message: 'already connected' } });
    }
    const abort = new AbortController();
    this.inFlight.add(abort);
    const afterResponse: (() => void)[] = [];
    const call: CallContext = {
      caller,
      requestId: frame.id,
      signal: abort.signal,
      acknowledge: (payload) => this.respond(frame.id, { ok: true, payload }),
      afterResponse: (effect) => void afterResponse.push(effect),
    };
    try {
      const outcome = await this.host.dispatch(frame.method, frame.params, call);
      this.respond(frame.id, outcome);
    } finally {
      this.inFlight.delete(abort);
      for (const effect of afterResponse) effect();
    }
  }

  private respond(id: string, outcome: { ok: true; payload: unknown } | { ok: false; error: WireError }): void {
    const frame: ResponseFrame = outcome.ok
      ? { type: 'res', id, ok: true, payload: outcome.payload }
      : { type: 'res', id, ok: false, error: outcome.error };
    this.emitRaw(frame);
  }

  /** Sends an event with this connection's next seq; droppable events are skipped for a slow consumer. */
  sendEvent(
    event: string,
    payload: unknown,
    options: { droppable?: boolean; stateVersion?: EventFrame['stateVersion'] } = {},
  ): void {
    if (this.state !== 'connected') return;
    this.seq += 1;
    if (this.transport.bufferedAmount() > this.host.policy.maxBufferedBytes) {
      if (options.droppable) return;
      return this.close(closeCodes.policyViolation, 'slow consumer');
    }
    const frame: EventFrame = { type: 'event', event, payload, seq: this.seq };
    if (options.stateVersion) frame.stateVersion = options.stateVersion;
    this.emitRaw(frame);
  }

  private emitRaw(frame: ServerFrame): void {
    if (this.state === 'closed') return;
    try {
      this.transport.send(frame);
    } catch (error) {
      this.host.log.warn('send failed; closing connection', { connId: this.connId, error: String(error) });
      this.transportClosed(closeCodes.normal, 'send failed');
    }
  }

  /** Closes from our side. */
  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    try {
      this.transport.close(code, reason);
    } catch {
      // The socket may already be gone; the close bookkeeping below still runs.
    }
    this.transportClosed(code, reason);
  }

  /** The transport reports it closed (either side). */
  transportClosed(code: number, reason: string): void {
    if (this.state === 'closed') return;
    const wasConnected = this.state === 'connected';
    this.state = 'closed';
    this.handshakeTimer.dispose();
    for (const abort of this.inFlight) abort.abort(new Error('connection closed'));
    if (wasConnected) this.host.onClosed(this);
    for (const listener of this.closeListeners.splice(0)) listener(code, reason);
  }
}

/** The frame wraps params one level deeper; everything else about it is small. */
function frameShapeProblem(frame: unknown): WireError | undefined {
  try {
    assertParamsShape(frame, { ...paramsShapeLimits, maxDepth: paramsShapeLimits.maxDepth + 1 });
    return undefined;
  } catch (error) {
    return toWireError(error);
  }
}

function paramsShapeProblem(params: unknown): WireError | undefined {
  try {
    assertParamsShape(params);
    return undefined;
  } catch (error) {
    return toWireError(error);
  }
}

function idOf(raw: unknown): string | undefined {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'string' && value.id.length > 0)
    return value.id;
  return undefined;
}

export const connectionPolicyDefaults = {
  maxPayload: gatewayPolicyDefaults.maxPayload,
  maxBufferedBytes: gatewayPolicyDefaults.maxBufferedBytes,
  preConnectMaxPayload: gatewayPolicyDefaults.preConnectMaxPayload,
  handshakeTimeoutMs: gatewayPolicyDefaults.handshakeTimeoutMs,
};
