import type { z } from 'zod';
import type { Scope } from '../scopes.js';

/**
 * One method of the wire: who may call it, what its params are (a closed schema),
 * and whether it has side effects. `Result` is carried as a type only, so both ends
 * share it without the gateway validating its own output.
 */
export interface MethodSpec<Params extends z.ZodType = z.ZodType, Result = unknown> {
  /** The scope a caller needs; 'none' only for health-style probes. */
  scope: Scope | 'none';
  params: Params;
  /**
   * Side-effect methods need an `idempotencyKey` param. `true`: the gateway caches the
   * first response per key and replays it (a different params body under the same key
   * is a conflict). `'handler'`: the handler implements the dedupe itself (chat.send and
   * agent answer `in_flight` while their run is active, as OpenClaw does).
   */
  idempotent?: boolean | 'handler';
  /** Control-plane writes count against the per-connection write budget. */
  controlPlaneWrite?: boolean;
  /** Phantom: never set at run time. */
  readonly __result?: Result;
}

/** A method's declaration: its params as a schema, or as a function that builds it on first use. */
export type MethodDeclaration<Params extends z.ZodType, Result> = Omit<
  MethodSpec<Params, Result>,
  '__result' | 'params'
> & {
  params: Params | (() => Params);
};

/**
 * `method<Result>()({ scope, params: () => z.object(…) })`: curried so Params is inferred while
 * Result is given. A params function runs on the first call of the method, not when the gateway
 * starts: building the wire's ~150 schemas was ~20 ms of the start before the port opens (issue 23).
 */
export function method<Result>() {
  return <Params extends z.ZodType>(declaration: MethodDeclaration<Params, Result>): MethodSpec<Params, Result> => {
    const { params, ...rest } = declaration;
    if (typeof params !== 'function') return { ...rest, params } as MethodSpec<Params, Result>;
    let built: Params | undefined;
    return Object.defineProperty(rest, 'params', {
      enumerable: true,
      get: () => {
        built ??= params();
        return built;
      },
    }) as MethodSpec<Params, Result>;
  };
}
