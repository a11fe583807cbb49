import type { MethodName, MethodParams } from '../method-table.js';

type WithOptionalKey<P> = P extends { idempotencyKey: string }
  ? Omit<P, 'idempotencyKey'> & { idempotencyKey?: string }
  : P;

/** A method's params as a caller writes them: the client fills `idempotencyKey` when it is left out. */
export type RequestParams<M extends MethodName> = WithOptionalKey<MethodParams<M>>;

export interface RequestOptions {
  /** Overrides the client's default; the request fails with a retryable UNAVAILABLE after it. */
  timeoutMs?: number;
  /**
   * Two-phase methods (`agent`, `exec.approval.request{twoPhase}`) answer `status:"accepted"`
   * first and the outcome later under the same id; with this set the promise waits for the outcome.
   */
  expectFinal?: boolean;
  /** Called with the interim `accepted` payload of a two-phase method. */
  onAccepted?: (payload: unknown) => void;
}
