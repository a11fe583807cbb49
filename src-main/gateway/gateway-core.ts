import type { Clock } from '../base/clock.js';
import { type Disposable, DisposableStore, toDisposable } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import type { Logger } from '../base/logger.js';
import {
  type ConnectParams,
  closeCodes,
  eventAudience,
  eventNames,
  gatewayPolicyDefaults,
  type HelloOk,
  hasScope,
  PROTOCOL_VERSION,
  type PresenceEntry,
  type ServerFrame,
} from '../protocol/index.js';
import type { HeartbeatStatus, UpgradesStatus } from '../protocol/methods/gateway.js';
import type { ApiTokenStore } from './auth/api-tokens.js';
import { AuthRateLimiter } from './auth/auth-rate-limit.js';
import { authenticateBearer, type BearerResult } from './auth/bearer-token.js';
import type { DeviceRegistry } from './auth/device-registry.js';
import {
  type AcceptedIdentity,
  authenticateConnect,
  type BootstrapTokens,
  type GatewayAuthSettings,
  type PeerInfo,
} from './auth/handshake.js';
import { PairingRequests, pairingRequestView } from './auth/pairing-requests.js';
import type { CallerIdentity } from './caller.js';
import { Connection, type ConnectionHost, connectionPolicyDefaults, type FrameTransport } from './connection.js';
import { GatewayEventBus, type PublishedEvent } from './event-bus.js';
import { HttpRouteRegistry } from './http-route-registry.js';
import { IdempotencyCache } from './idempotency-cache.js';
import type { InProcessConnection, InProcessConnectOptions, InProcessGateway } from './in-process-transport.js';
import { type DispatchOutcome, MethodRegistry } from './method-router.js';
import { createToleranceLog } from './tolerance-log.js';
import { WriteBudget, type WriteBudgetOptions } from './write-budget.js';

export interface GatewayCoreOptions {
  clock: Clock;
  log: Logger;
  version: string;
  auth: GatewayAuthSettings;
  devices: DeviceRegistry;
  /** Minted API tokens for the HTTP doors (`hearth tokens create`). */
  apiTokens?: ApiTokenStore;
  bootstrap?: BootstrapTokens;
  tickIntervalMs?: number;
  writeBudget?: WriteBudgetOptions;
  policy?: Partial<typeof connectionPolicyDefaults>;
  capabilities?: string[];
}

/** Clients that are not shown in presence (PROTOCOL.md §7). */
const QUIET_MODES = new Set(['cli', 'backend', 'probe']);

/**
 * The gateway without its sockets: connections, dispatch, fan-out, presence, tick and
 * shutdown. The WebSocket server and the in-process bridge both attach here, so the
 * same frames give the same results whatever carried them.
 */
export class GatewayCore implements InProcessGateway, Disposable {
  readonly registry: MethodRegistry;
  readonly bus = new GatewayEventBus();
  /** HTTP routes capabilities add to the port (OpenAI-compatible API, MCP over HTTP). */
  readonly httpRoutes = new HttpRouteRegistry();
  readonly pairing: PairingRequests;
  /** Live `status` sections a capability fills in once it is wired (host/wire-heartbeat.ts); unset: the default. */
  readonly statusSections: { heartbeat?: () => HeartbeatStatus; upgrades?: () => UpgradesStatus } = {};
  private readonly connections = new Set<Connection>();
  private readonly budgets = new WeakMap<Connection, WriteBudget>();
  private readonly idempotency: IdempotencyCache;
  private readonly rateLimiter: AuthRateLimiter;
  private readonly store = new DisposableStore();
  private readonly startedAt: number;
  private presenceVersion = 0;
  private healthVersion = 0;
  private acceptingWork = true;
  private readonly didChangeConnections = new Emitter<number>();
  readonly onDidChangeConnections = this.didChangeConnections.event;
  readonly policy: typeof connectionPolicyDefaults & { tickIntervalMs: number };
  private readonly connectionHost: ConnectionHost;

  constructor(private readonly options: GatewayCoreOptions) {
    const { clock } = options;
    this.startedAt = clock.now();
    this.policy = {
      ...connectionPolicyDefaults,
      ...options.policy,
      tickIntervalMs: options.tickIntervalMs ?? gatewayPolicyDefaults.tickIntervalMs,
    };
    this.idempotency = this.store.add(new IdempotencyCache(clock));
    this.rateLimiter = new AuthRateLimiter(clock);
    this.pairing = this.store.add(new PairingRequests(clock));
    const tolerated = createToleranceLog(options.log);
    this.registry = new MethodRegistry({
      onTolerated: tolerated,
      beforeCall: (_method, spec, _params, call) => {
        if (!this.acceptingWork) {
          return {
            ok: false,
            error: {
              code: 'UNAVAILABLE',
              message: 'gateway is shutting down',
              retryable: true,
              details: { reason: 'shutdown' },
            },
          };
        }
        if (!spec.controlPlaneWrite) return undefined;
        const connection = [...this.connections].find((c) => c.connId === call.caller.connId);
        if (!connection) return undefined;
        let budget = this.budgets.get(connection);
        if (!budget) {
          budget = new WriteBudget(clock, options.writeBudget);
          this.budgets.set(connection, budget);
        }
        const waitMs = budget.take();
        if (waitMs === 0) return undefined;
        return {
          ok: false,
          error: {
            code: 'UNAVAILABLE',
            message: `too many control-plane writes; retry in ${Math.ceil(waitMs / 1000)} s`,
            retryable: true,
            retryAfterMs: waitMs,
            details: { code: 'RATE_LIMITED', reason: 'write-budget' },
          },
        };
      },
      runIdempotent: (method, key, params, _call, run) => this.idempotency.run(method, key, params, run),
    });
    this.connectionHost = {
      clock: this.options.clock,
      log: this.options.log,
      challengeCapabilities: this.options.capabilities ?? [],
      tolerated,
      policy: {
        maxPayload: this.options.policy?.maxPayload ?? connectionPolicyDefaults.maxPayload,
        maxBufferedBytes: this.options.policy?.maxBufferedBytes ?? connectionPolicyDefaults.maxBufferedBytes,
        preConnectMaxPayload:
          this.options.policy?.preConnectMaxPayload ?? connectionPolicyDefaults.preConnectMaxPayload,
        handshakeTimeoutMs: this.options.policy?.handshakeTimeoutMs ?? connectionPolicyDefaults.handshakeTimeoutMs,
      },
      authenticate: (params, nonce, peer) =>
        authenticateConnect(params as ConnectParams, nonce, peer, {
          auth: this.options.auth,
          devices: this.options.devices,
          pairing: this.pairing,
          rateLimiter: this.rateLimiter,
          bootstrap: this.options.bootstrap,
          clock: this.options.clock,
          apiTokens: this.options.apiTokens,
        }),
      buildHello: (connection, identity) => this.buildHello(connection, identity),
      dispatch: (method, params, call) => this.registry.dispatch(method, params, call),
      onConnected: (connection) => {
        this.didChangeConnections.fire(this.connections.size);
        if (connection.caller && !QUIET_MODES.has(connection.caller.clientMode)) this.presenceChanged();
      },
      onClosed: (connection) => {
        if (connection.caller && !QUIET_MODES.has(connection.caller.clientMode)) this.presenceChanged();
      },
    };
    this.store.add(this.bus.onDidPublish((published) => this.fanOut(published)));
    this.store.add(clock.setInterval(() => this.broadcast('tick', { ts: clock.now() }), this.policy.tickIntervalMs));
    this.store.add(
      this.pairing.onDidRequest((request) =>
        this.bus.publish('device.pair.requested', { ...pairingRequestView(request), silent: request.silent }),
      ),
    );
    this.store.add(
      this.pairing.onDidResolve(({ request, decision }) =>
        this.bus.publish('device.pair.resolved', {
          requestId: request.requestId,
          deviceId: request.deviceId,
          decision,
          ts: clock.now(),
        }),
      ),
    );
  }

  get uptimeMs(): number {
    return this.options.clock.now() - this.startedAt;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  get version(): string {
    return this.options.version;
  }

  get devices(): DeviceRegistry {
    return this.options.devices;
  }

  /** Connected callers (for presence and tests). */
  callers(): CallerIdentity[] {
    return [...this.connections].flatMap((c) => (c.caller ? [c.caller] : []));
  }

  presence(): PresenceEntry[] {
    return [...this.connections]
      .filter((c) => c.caller && !QUIET_MODES.has(c.caller.clientMode))
      .map((c) => {
        const caller = c.caller!;
        return {
          ts: this.options.clock.now(),
          connId: caller.connId,
          clientId: caller.clientId,
          mode: caller.clientMode,
          platform: caller.platform,
          deviceId: caller.deviceId,
          roles: [caller.role],
          scopes: [...caller.scopes],
          ip: caller.remoteAddress,
          text: caller.displayName,
        };
      });
  }

  attach(transport: FrameTransport, peer: PeerInfo): Connection {
    const connection = new Connection(transport, peer, this.connectionHost);
    if (!this.acceptingWork) {
      connection.close(closeCodes.shutdown, 'gateway stopping');
      return connection;
    }
    this.connections.add(connection);
    connection.onClose(() => {
      this.connections.delete(connection);
      this.didChangeConnections.fire(this.connections.size);
    });
    return connection;
  }

  connectInProcess(options: InProcessConnectOptions = {}): InProcessConnection {
    const listeners = new Set<(frame: ServerFrame) => void>();
    // The subscriptions handed out by onFrame; a closed connection sends nothing more, so they end with it.
    const subscriptions = new DisposableStore();
    let resolveClosed!: (value: { code: number; reason: string }) => void;
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      resolveClosed = resolve;
    });
    const backlog: ServerFrame[] = [];
    const transport: FrameTransport = {
      send: (frame) => {
        if (listeners.size === 0) backlog.push(frame);
        for (const listener of [...listeners]) listener(frame);
      },
      close: () => {},
      bufferedAmount: () => 0,
    };
    const connection = this.attach(transport, {
      remoteAddress: 'in-process',
      isDirectLocal: true,
      isOwnControlUi: true,
      trustedInProcess: true,
    });
    connection.onClose((code, reason) => {
      subscriptions.dispose();
      resolveClosed({ code, reason });
    });
    void options;
    return {
      connId: connection.connId,
      send: (frame) => connection.receiveValue(frame),
      onFrame: (listener) => {
        listeners.add(listener);
        for (const frame of backlog.splice(0)) listener(frame);
        return subscriptions.add(toDisposable(() => listeners.delete(listener)));
      },
      closed,
      dispose: () => connection.close(closeCodes.normal, 'closed by client'),
    };
  }

  private buildHello(connection: Connection, identity: AcceptedIdentity): HelloOk {
    const auth: HelloOk['auth'] = { role: identity.role, scopes: identity.scopes, method: identity.method };
    if (identity.deviceToken) {
      auth.deviceToken = identity.deviceToken;
      auth.issuedAtMs = identity.issuedAtMs;
    }
    return {
      type: 'hello-ok',
      protocol: PROTOCOL_VERSION,
      server: { version: this.options.version, connId: connection.connId },
      features: {
        methods: this.registry.implementedMethods(),
        events: [...eventNames],
        capabilities: this.options.capabilities ?? [],
      },
      snapshot: {
        presence: this.presence(),
        health: { ok: true },
        stateVersion: { presence: this.presenceVersion, health: this.healthVersion },
        uptimeMs: this.uptimeMs,
        sessionDefaults: { mainSessionKey: 'agent:main:main', defaultAgentId: 'main' },
      },
      auth,
      policy: {
        maxPayload: this.policy.maxPayload,
        maxBufferedBytes: this.policy.maxBufferedBytes,
        tickIntervalMs: this.policy.tickIntervalMs,
      },
    };
  }

  private presenceChanged(): void {
    this.presenceVersion += 1;
    const stateVersion = { presence: this.presenceVersion, health: this.healthVersion };
    for (const connection of this.connections) {
      connection.sendEvent('presence', { presence: this.presence() }, { stateVersion });
    }
  }

  private broadcast(event: string, payload: unknown): void {
    for (const connection of this.connections) connection.sendEvent(event, payload, { droppable: event === 'tick' });
  }

  private fanOut(published: PublishedEvent): void {
    for (const connection of this.connections) {
      const caller = connection.caller;
      if (!caller || !this.delivers(caller, published)) continue;
      connection.sendEvent(published.event, published.payload, { droppable: published.options.droppable });
    }
  }

  /** Whether `caller` may see an event: its scope audience, then the publisher's own filter. */
  private delivers(caller: CallerIdentity, { event, options }: PublishedEvent): boolean {
    const audience = eventAudience(event);
    if (audience !== 'everyone') {
      if (caller.role !== 'operator') return false;
      if (!hasScope(caller.scopes, audience)) return false;
    }
    return !options.to || options.to(caller);
  }

  /** An HTTP request's bearer token, checked by the handshake's rules (auth/bearer-token.ts). */
  authenticateBearer(token: string | undefined, peer: PeerInfo): Promise<BearerResult> {
    return authenticateBearer(token, peer, {
      auth: this.options.auth,
      devices: this.options.devices,
      rateLimiter: this.rateLimiter,
      apiTokens: this.options.apiTokens,
    });
  }

  /**
   * A call made for a caller without a socket (an HTTP request): the same router, scope
   * checks, idempotency and shutdown refusal as a frame.
   */
  callAs(caller: CallerIdentity, method: string, params: unknown, signal: AbortSignal): Promise<DispatchOutcome> {
    return this.registry.dispatch(method, params, {
      caller,
      requestId: `${caller.connId}:${method}`,
      signal,
      acknowledge: () => {},
    });
  }

  /** The events `caller` would receive on a socket, for callers without one. */
  subscribeAs(caller: CallerIdentity, listener: (event: string, payload: unknown) => void): Disposable {
    return this.bus.onDidPublish((published) => {
      if (this.delivers(caller, published)) listener(published.event, published.payload);
    });
  }

  /** Closes every live connection of a device (revocation takes effect at once), but `except`. */
  closeDeviceConnections(deviceId: string, reason: string, options: { except?: string } = {}): number {
    let closed = 0;
    for (const connection of [...this.connections]) {
      if (connection.caller?.deviceId === deviceId && connection.connId !== options.except) {
        connection.close(closeCodes.policyViolation, reason);
        closed += 1;
      }
    }
    return closed;
  }

  /** Closes one connection by id (after it was told why, e.g. its own rotated token). */
  closeConnection(connId: string, reason: string): boolean {
    const connection = [...this.connections].find((c) => c.connId === connId);
    connection?.close(closeCodes.policyViolation, reason);
    return connection !== undefined;
  }

  /**
   * Graceful stop: refuse new work, give in-flight calls `graceMs` to finish, send
   * `shutdown` and close with 1012.
   */
  async shutdown(reason = 'gateway stopping', graceMs = 2_000): Promise<void> {
    if (!this.acceptingWork) return;
    this.acceptingWork = false;
    // On the injected clock, so a test's fake clock drives the grace period too.
    const { clock } = this.options;
    const busy = () => [...this.connections].some((c) => c.inFlightCount > 0);
    for (let waited = 0; waited < graceMs && busy(); waited += 20) {
      await new Promise<void>((resolve) => clock.setTimeout(resolve, 20));
    }
    for (const connection of [...this.connections]) {
      connection.sendEvent('shutdown', { reason });
      connection.close(closeCodes.shutdown, reason);
    }
  }

  dispose(): void {
    this.store.dispose();
    this.bus.dispose();
    this.didChangeConnections.dispose();
  }
}
