import { z } from 'zod';
import { type Disposable, toDisposable } from '../base/disposable.js';
import { assertNever, HearthError, type HearthErrorCode } from '../base/errors.js';
import {
  type ErrorCode,
  formatIssues,
  GatewayError,
  hasScope,
  invalidRequest,
  isMethodName,
  type MethodName,
  type MethodParsedParams,
  type MethodResult,
  type MethodSpec,
  methodTable,
  type WireError,
} from '../protocol/index.js';
import { parseTolerant } from '../protocol/tolerant-params.js';
import type { CallerIdentity } from './caller.js';
import { assertParamsShape } from './params-shape.js';
import type { ToleranceReporter } from './tolerance-log.js';

export interface CallContext {
  caller: CallerIdentity;
  requestId: string;
  /** Aborted when the connection closes or the gateway shuts down. */
  signal: AbortSignal;
  /**
   * For two-phase methods (`agent`, `exec.approval.request{twoPhase}`): sends a first
   * `res` for the same id (e.g. `{status:"accepted"}`) before the final one.
   */
  acknowledge(payload: unknown): void;
  /**
   * Runs `effect` once this call's final response has been handed to the transport (a
   * handler that ends its own connection, e.g. rotating its own token, answers first).
   * Without a connection (direct dispatch in tests) it runs right after the handler.
   */
  afterResponse?(effect: () => void): void;
}

export type MethodHandler<M extends MethodName> = (
  params: MethodParsedParams<M>,
  call: CallContext,
) => Promise<MethodResult<M>> | MethodResult<M>;

/** What capabilities see: register a handler for a method of the protocol table. */
export interface MethodRouter {
  handle<M extends MethodName>(name: M, handler: MethodHandler<M>): Disposable;
}

export type DispatchOutcome = { ok: true; payload: unknown } | { ok: false; error: WireError };

export interface DispatchHooks {
  /** Idempotency + write budget live in the gateway; the router asks them. */
  beforeCall?(method: string, spec: MethodSpec, params: unknown, call: CallContext): DispatchOutcome | undefined;
  runIdempotent?(
    method: string,
    key: string,
    params: unknown,
    call: CallContext,
    run: () => Promise<unknown>,
  ): Promise<unknown>;
  /** Unknown params keys were dropped or limits lowered (the compatibility policy); for a debug log. */
  onTolerated?: ToleranceReporter;
}

type AnyHandler = (params: unknown, call: CallContext) => unknown;

/** Plugin methods' params: any JSON object or value, passed through (the plugin validates). */
const looseParams = z.unknown();

/**
 * The one place every call goes through, whatever carried it: method lookup,
 * role and scope check, params schema, idempotency, then the handler.
 */
export class MethodRegistry implements MethodRouter {
  private readonly handlers = new Map<string, AnyHandler>();
  /** Methods outside the protocol's table (plugins'), with the spec they were registered with. */
  private readonly extensions = new Map<string, { spec: MethodSpec; handler: AnyHandler }>();
  /** While capabilities are still loading, their methods answer "starting", not "unknown". */
  private starting = false;

  setStarting(starting: boolean): void {
    this.starting = starting;
  }

  constructor(private readonly hooks: DispatchHooks = {}) {}

  handle<M extends MethodName>(name: M, handler: MethodHandler<M>): Disposable {
    if (this.handlers.has(name)) throw new Error(`method ${name} already has a handler`);
    this.handlers.set(name, handler as AnyHandler);
    return toDisposable(() => {
      if (this.handlers.get(name) === (handler as AnyHandler)) this.handlers.delete(name);
    });
  }

  /**
   * A method outside the protocol's table (a plugin's `<pluginId>.<name>`): the same role and
   * scope check, write budget and idempotency as the built-in ones. Its params reach the handler
   * as sent (no table schema knows them; the plugin checks its own).
   */
  handleExtension(
    name: string,
    spec: Pick<MethodSpec, 'scope' | 'idempotent' | 'controlPlaneWrite'>,
    handler: (params: unknown, call: CallContext) => unknown,
  ): Disposable {
    if (isMethodName(name) || this.handlers.has(name) || this.extensions.has(name))
      throw new Error(`method ${name} already exists`);
    const entry = { spec: { ...spec, params: looseParams }, handler };
    this.extensions.set(name, entry);
    return toDisposable(() => {
      if (this.extensions.get(name) === entry) this.extensions.delete(name);
    });
  }

  /** Methods with handlers: what hello-ok advertises. */
  implementedMethods(): string[] {
    return [...this.handlers.keys(), ...this.extensions.keys()].sort();
  }

  has(name: string): boolean {
    return this.handlers.has(name) || this.extensions.has(name);
  }

  async dispatch(method: string, rawParams: unknown, call: CallContext): Promise<DispatchOutcome> {
    try {
      return { ok: true, payload: await this.dispatchOrThrow(method, rawParams, call) };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  }

  private async dispatchOrThrow(method: string, rawParams: unknown, call: CallContext): Promise<unknown> {
    const { caller } = call;
    // Before anything recursive (schemas, hashing, merge patches) touches them.
    assertParamsShape(rawParams);
    const handler = this.handlers.get(method);
    if (!handler && this.starting && isMethodName(method)) {
      throw new GatewayError(
        'UNAVAILABLE',
        `${method} is not ready yet: Hearth is still starting`,
        { reason: 'startup-sidecars' },
        { retryable: true, retryAfterMs: 500 },
      );
    }
    const extension = this.extensions.get(method);
    if (extension) {
      this.checkCaller(extension.spec, call);
      return this.run(method, extension.spec, rawParams ?? {}, extension.handler, call);
    }
    if (!isMethodName(method) || !handler) {
      // Non-admins cannot tell unknown methods from forbidden ones (PROTOCOL.md §5).
      if (caller.role === 'operator' && !hasScope(caller.scopes, 'operator.admin'))
        throw missingScope('operator.admin');
      throw invalidRequest(`unknown method: ${method}`);
    }
    const spec: MethodSpec = methodTable[method];
    this.checkCaller(spec, call);
    const parsed = parseTolerant(spec.params, rawParams ?? {});
    if (!parsed.success) throw invalidRequest(`invalid ${method} params: ${capped(formatIssues(parsed.issues))}`);
    if (parsed.ignored.length > 0 || parsed.clamped.length > 0) this.hooks.onTolerated?.(method, parsed);
    return this.run(method, spec, parsed.data, handler, call);
  }

  private checkCaller(spec: MethodSpec, { caller }: CallContext): void {
    if (spec.scope === 'none') return;
    if (caller.role !== 'operator') throw invalidRequest(`unauthorized role: ${caller.role}`);
    if (!hasScope(caller.scopes, spec.scope)) throw missingScope(spec.scope);
  }

  /** Write budget, shutdown and idempotency, then the handler: the same for table and plugin methods. */
  private async run(
    method: string,
    spec: MethodSpec,
    params: unknown,
    handler: AnyHandler,
    call: CallContext,
  ): Promise<unknown> {
    const refused = this.hooks.beforeCall?.(method, spec, params, call);
    if (refused && !refused.ok)
      throw new GatewayError(refused.error.code, refused.error.message, refused.error.details, refused.error);

    const key = spec.idempotent ? (params as { idempotencyKey?: unknown }).idempotencyKey : undefined;
    if (spec.idempotent === true && this.hooks.runIdempotent && typeof key === 'string') {
      return this.hooks.runIdempotent(method, key, params, call, async () => handler(params, call));
    }
    return handler(params, call);
  }
}

/** Error text stays readable whatever came in (an object of 10 000 bad keys would name them all). */
function capped(text: string, max = 2_000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

export function missingScope(scope: string): GatewayError {
  return new GatewayError('FORBIDDEN', `missing scope: ${scope}`, {
    code: 'MISSING_SCOPE',
    missingScope: scope,
    requiredScopes: [scope],
  });
}

export function toWireError(error: unknown): WireError {
  if (error instanceof GatewayError) return error.toWire();
  if (error instanceof HearthError) return wireErrorOf(error);
  if (error && typeof error === 'object' && 'toWire' in error && typeof error.toWire === 'function') {
    return error.toWire() as WireError;
  }
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}

/**
 * The one place a capability's error code becomes a wire error code (PROTOCOL.md §8). The wire
 * has no codes for conflict / timeout / aborted, so those are INVALID_REQUEST or UNAVAILABLE with
 * the Hearth code kept in `details.reason` unless the capability gave one.
 */
export function wireErrorOf(error: HearthError): WireError {
  const wire: WireError = { code: wireCodeOf(error.code), message: error.message };
  const details =
    error.code === 'conflict' || error.code === 'timeout' || error.code === 'aborted'
      ? { reason: error.code, ...error.details }
      : error.details;
  if (details !== undefined) wire.details = details;
  const retryable =
    error.retryable ?? (error.code === 'unavailable' || error.code === 'rate_limited' ? true : undefined);
  if (retryable !== undefined) wire.retryable = retryable;
  if (error.retryAfterMs !== undefined) wire.retryAfterMs = error.retryAfterMs;
  return wire;
}

function wireCodeOf(code: HearthErrorCode): ErrorCode {
  switch (code) {
    case 'bad_request':
    case 'conflict':
      return 'INVALID_REQUEST';
    case 'not_found':
      return 'NOT_FOUND';
    case 'forbidden':
      return 'FORBIDDEN';
    case 'unavailable':
    case 'timeout':
    case 'aborted':
      return 'UNAVAILABLE';
    case 'rate_limited':
      return 'RATE_LIMITED';
    case 'provider_error':
      return 'PROVIDER_ERROR';
    case 'internal':
      return 'INTERNAL';
    default:
      return assertNever(code);
  }
}
