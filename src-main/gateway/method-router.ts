import { type Disposable, toDisposable } from '../base/disposable.js';
import {
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
import type { CallerIdentity } from './caller.js';

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
  beforeCall?(method: MethodName, spec: MethodSpec, params: unknown, call: CallContext): DispatchOutcome | undefined;
  runIdempotent?(
    method: MethodName,
    key: string,
    params: unknown,
    call: CallContext,
    run: () => Promise<unknown>,
  ): Promise<unknown>;
}

type AnyHandler = (params: unknown, call: CallContext) => unknown;

/**
 * The one place every call goes through, whatever carried it: method lookup,
 * role and scope check, params schema, idempotency, then the handler.
 */
export class MethodRegistry implements MethodRouter {
  private readonly handlers = new Map<string, AnyHandler>();
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

  /** Methods with handlers: what hello-ok advertises. */
  implementedMethods(): string[] {
    return [...this.handlers.keys()].sort();
  }

  has(name: string): boolean {
    return this.handlers.has(name);
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
    const handler = this.handlers.get(method);
    if (!handler && this.starting && isMethodName(method)) {
      throw new GatewayError(
        'UNAVAILABLE',
        `${method} is not ready yet: Hearth is still starting`,
        { reason: 'startup-sidecars' },
        { retryable: true, retryAfterMs: 500 },
      );
    }
    if (!isMethodName(method) || !handler) {
      // Non-admins cannot tell unknown methods from forbidden ones (PROTOCOL.md §5).
      if (caller.role === 'operator' && !hasScope(caller.scopes, 'operator.admin'))
        throw missingScope('operator.admin');
      throw invalidRequest(`unknown method: ${method}`);
    }
    const spec: MethodSpec = methodTable[method];
    if (spec.scope !== 'none') {
      if (caller.role !== 'operator') throw invalidRequest(`unauthorized role: ${caller.role}`);
      if (!hasScope(caller.scopes, spec.scope)) throw missingScope(spec.scope);
    }
    const parsed = spec.params.safeParse(rawParams ?? {});
    if (!parsed.success) throw invalidRequest(`invalid ${method} params: ${formatIssues(parsed.error.issues)}`);
    const params = parsed.data;

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

export function missingScope(scope: string): GatewayError {
  return new GatewayError('FORBIDDEN', `missing scope: ${scope}`, {
    code: 'MISSING_SCOPE',
    missingScope: scope,
    requiredScopes: [scope],
  });
}

export function toWireError(error: unknown): WireError {
  if (error instanceof GatewayError) return error.toWire();
  if (error && typeof error === 'object' && 'toWire' in error && typeof error.toWire === 'function') {
    return error.toWire() as WireError;
  }
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
