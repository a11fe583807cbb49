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

/** `method<Result>()({ scope, params })`: curried so Params is inferred while Result is given. */
export function method<Result>() {
  return <Params extends z.ZodType>(spec: Omit<MethodSpec<Params, Result>, '__result'>): MethodSpec<Params, Result> =>
    spec as MethodSpec<Params, Result>;
}
