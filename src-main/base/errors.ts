/** Compile-time exhaustiveness: a new union member breaks the build where it is unhandled. */
export function assertNever(value: never, message = 'unexpected value'): never {
  throw new Error(`${message}: ${JSON.stringify(value)}`);
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * What went wrong, as every capability says it. The gateway's method router maps each code to a
 * wire error once (gateway/method-router.ts `wireErrorOf`), so capabilities never import the wire
 * and nobody tells errors apart by their message text.
 */
export type HearthErrorCode =
  /** The caller's input is wrong (a malformed key, an empty message, an unknown model reference). */
  | 'bad_request'
  /** The thing asked for does not exist. */
  | 'not_found'
  /** The request clashes with an earlier one (an idempotency key reused for different params). */
  | 'conflict'
  /** Not allowed for this caller. */
  | 'forbidden'
  /** Not possible right now (still starting, a dependency is down); retrying may work. */
  | 'unavailable'
  | 'rate_limited'
  /** A model provider failed; `details.reason` says how (FailoverReason). */
  | 'provider_error'
  | 'timeout'
  | 'aborted'
  | 'internal';

export const hearthErrorCodes = [
  'bad_request',
  'not_found',
  'conflict',
  'forbidden',
  'unavailable',
  'rate_limited',
  'provider_error',
  'timeout',
  'aborted',
  'internal',
] as const satisfies readonly HearthErrorCode[];

export interface HearthErrorOptions {
  /** Machine-readable context for clients (e.g. `{ reason, runId }`); goes on the wire as `details`. */
  details?: Record<string, unknown>;
  retryable?: boolean;
  retryAfterMs?: number;
  cause?: unknown;
}

/** The error every capability throws (STYLE.md §6): a closed code, a message a person can act on. */
export class HearthError extends Error {
  readonly details?: Record<string, unknown>;
  readonly retryable?: boolean;
  readonly retryAfterMs?: number;

  constructor(
    readonly code: HearthErrorCode,
    message: string,
    options: HearthErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HearthError';
    this.details = options.details;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export function isHearthError(error: unknown): error is HearthError {
  return error instanceof HearthError;
}
