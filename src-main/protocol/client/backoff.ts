/** Reconnect delays: exponential, capped, with jitter so many clients don't return at once. */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** 0..1: how much of each delay is randomised (0.5 → between 50 % and 100 % of the step). */
  jitter: number;
}

export const defaultBackoff: BackoffPolicy = { initialMs: 500, maxMs: 30_000, factor: 2, jitter: 0.5 };

/** `attempt` counts from 0; `random` returns [0, 1) and comes in as a parameter so tests can pin it. */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number): number {
  const step = Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  return Math.round(step * (1 - jitter + jitter * random()));
}
