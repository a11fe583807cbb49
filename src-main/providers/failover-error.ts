import { HearthError } from '../base/errors.js';
/** Why a model call failed, closed so every consumer handles every case (ARCHITECTURE.md constants). */
export const failoverReasons = [
  'billing',
  'rate_limit',
  'overloaded',
  'auth',
  'auth_permanent',
  'timeout',
  'format',
  'model_not_found',
  'session_expired',
  'context_overflow',
  'server_error',
  'empty_response',
  /** A spend cap in `usage.limits` is used up (src-main/usage): no fallback helps. */
  'budget_exhausted',
  'unknown',
] as const;
export type FailoverReason = (typeof failoverReasons)[number];

export interface FailoverErrorOptions {
  provider?: string;
  model?: string;
  profileId?: string;
  status?: number;
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * The one error model fallback consumes: anything else propagates as is. On the wire it is
 * PROVIDER_ERROR with the reason, provider and model in `details`; retrying later may help
 * when the provider was busy or slow.
 */
export class FailoverError extends HearthError {
  readonly provider?: string;
  readonly model?: string;
  readonly profileId?: string;
  readonly status?: number;

  constructor(
    readonly reason: FailoverReason,
    message: string,
    options: FailoverErrorOptions = {},
  ) {
    super('provider_error', message, {
      details: { reason, provider: options.provider, model: options.model },
      retryable: reason === 'rate_limit' || reason === 'overloaded' || reason === 'timeout',
      retryAfterMs: options.retryAfterMs,
      cause: options.cause,
    });
    this.name = 'FailoverError';
    this.provider = options.provider;
    this.model = options.model;
    this.profileId = options.profileId;
    this.status = options.status;
  }
}

export function isFailoverError(error: unknown): error is FailoverError {
  return error instanceof FailoverError;
}

/** One line a user can act on; the raw provider message goes to the log. */
export function describeFailoverReason(reason: FailoverReason): string {
  switch (reason) {
    case 'billing':
      return 'the provider refused the request for billing reasons (out of credit or quota)';
    case 'rate_limit':
      return 'the provider rate-limited the request';
    case 'overloaded':
      return 'the provider is overloaded';
    case 'auth':
      return 'the provider rejected the credential';
    case 'auth_permanent':
      return 'the credential is not allowed to use this model';
    case 'timeout':
      return 'the provider did not answer in time or the connection dropped';
    case 'format':
      return 'the provider rejected the request as malformed';
    case 'model_not_found':
      return 'the provider does not know this model';
    case 'session_expired':
      return 'the provider session expired';
    case 'context_overflow':
      return 'the conversation is too long for the model';
    case 'server_error':
      return 'the provider failed or returned a malformed response';
    case 'empty_response':
      return 'the provider returned an empty response';
    case 'budget_exhausted':
      return 'the spend limit is reached';
    case 'unknown':
      return 'the model call failed';
  }
}
