// Wire error codes (PROTOCOL.md §8). There is no UNAUTHORIZED code on the wire:
// auth failures are INVALID_REQUEST with a specific details.code.

export const errorCodes = [
  'INVALID_REQUEST',
  'FORBIDDEN',
  'NOT_PAIRED',
  'UNAVAILABLE',
  'APPROVAL_NOT_FOUND',
  'NOT_FOUND',
  'RATE_LIMITED',
  'PROVIDER_ERROR',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** details.code values used during connect and by methods. */
export type DetailCode =
  | 'AUTH_REQUIRED'
  | 'AUTH_UNAUTHORIZED'
  | 'AUTH_TOKEN_MISSING'
  | 'AUTH_TOKEN_MISMATCH'
  | 'AUTH_TOKEN_NOT_CONFIGURED'
  | 'AUTH_PASSWORD_MISSING'
  | 'AUTH_PASSWORD_MISMATCH'
  | 'AUTH_BOOTSTRAP_TOKEN_INVALID'
  | 'AUTH_DEVICE_TOKEN_MISMATCH'
  | 'AUTH_SCOPE_MISMATCH'
  | 'AUTH_RATE_LIMITED'
  | 'PROTOCOL_MISMATCH'
  | 'DEVICE_IDENTITY_REQUIRED'
  | 'DEVICE_AUTH_DEVICE_ID_MISMATCH'
  | 'DEVICE_AUTH_SIGNATURE_EXPIRED'
  | 'DEVICE_AUTH_NONCE_REQUIRED'
  | 'DEVICE_AUTH_NONCE_MISMATCH'
  | 'DEVICE_AUTH_SIGNATURE_INVALID'
  | 'DEVICE_AUTH_PUBLIC_KEY_INVALID'
  | 'PAIRING_REQUIRED'
  | 'MISSING_SCOPE'
  | 'RATE_LIMITED'
  | 'IDEMPOTENCY_KEY_REQUIRED'
  // Scopes, pairing and origins (docs/GATEWAY.md "Scopes and pairing").
  | 'ORIGIN_NOT_ALLOWED'
  | 'SCOPE_NOT_HELD'
  | 'PERSON_REQUIRED'
  | 'SELF_APPROVAL'
  | 'SETUP_CODE_IN_USE'
  | 'SETUP_CODE_SCOPES'
  | 'PARAMS_TOO_COMPLEX';

export interface WireError {
  code: ErrorCode;
  message: string;
  details?: unknown;
  retryable?: boolean;
  retryAfterMs?: number;
}

/** Thrown by method handlers and capabilities; the gateway turns it into a `res` error as is. */
export class GatewayError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly options: { retryable?: boolean; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'GatewayError';
  }

  toWire(): WireError {
    const wire: WireError = { code: this.code, message: this.message };
    if (this.details !== undefined) wire.details = this.details;
    if (this.options.retryable !== undefined) wire.retryable = this.options.retryable;
    if (this.options.retryAfterMs !== undefined) wire.retryAfterMs = this.options.retryAfterMs;
    return wire;
  }
}

export function invalidRequest(message: string, details?: unknown): GatewayError {
  return new GatewayError('INVALID_REQUEST', message, details);
}

export function notFound(message: string, details?: unknown): GatewayError {
  return new GatewayError('NOT_FOUND', message, details);
}

export function unavailable(message: string, details?: unknown, retryAfterMs?: number): GatewayError {
  return new GatewayError('UNAVAILABLE', message, details, { retryable: true, retryAfterMs });
}

export const closeCodes = {
  normal: 1000,
  protocolMismatch: 1002,
  policyViolation: 1008,
  tooBig: 1009,
  shutdown: 1012,
  restart: 1013,
} as const;
