import { describe, expect, it } from 'vitest';
import { RunConflictError } from '../agent/index.js';
import { HearthError, hearthErrorCodes } from '../base/errors.js';
import { FailoverError } from '../providers/index.js';
import { SessionStoreError } from '../sessions/index.js';
import { toWireError, wireErrorOf } from './method-router.js';

describe('capability errors on the wire', () => {
  it('maps every HearthError code to a wire code, once, in the router', () => {
    const wireCodes = hearthErrorCodes.map((code) => wireErrorOf(new HearthError(code, code)).code);
    expect(wireCodes).toEqual([
      'INVALID_REQUEST',
      'NOT_FOUND',
      'INVALID_REQUEST',
      'FORBIDDEN',
      'UNAVAILABLE',
      'RATE_LIMITED',
      'PROVIDER_ERROR',
      'UNAVAILABLE',
      'UNAVAILABLE',
      'INTERNAL',
    ]);
  });

  it('keeps what a client acts on: the conflict reason, the provider failure, whether to retry', () => {
    expect(toWireError(new RunConflictError('run-1'))).toEqual({
      code: 'INVALID_REQUEST',
      message: 'idempotency key "run-1" was already used for a different request',
      details: { reason: 'chat-request-conflict', runId: 'run-1' },
    });
    expect(
      toWireError(
        new FailoverError('rate_limit', 'slow down', { provider: 'openai', model: 'gpt-4o', retryAfterMs: 900 }),
      ),
    ).toEqual({
      code: 'PROVIDER_ERROR',
      message: 'slow down',
      details: { reason: 'rate_limit', provider: 'openai', model: 'gpt-4o' },
      retryable: true,
      retryAfterMs: 900,
    });
    expect(toWireError(new FailoverError('auth', 'bad key'))).toMatchObject({ retryable: false });
    expect(toWireError(new SessionStoreError('not_found', 'no such session'))).toEqual({
      code: 'NOT_FOUND',
      message: 'no such session',
    });
  });

  it('answers anything else as INTERNAL', () => {
    expect(toWireError(new TypeError('boom'))).toEqual({ code: 'INTERNAL', message: 'boom' });
  });
});
