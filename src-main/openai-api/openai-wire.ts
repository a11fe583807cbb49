import type { ServerResponse } from 'node:http';
import { assertNever } from '../base/errors.js';
import type { ErrorCode, TokenUsage, WireError } from '../protocol/index.js';

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export interface OpenAiError {
  status: number;
  message: string;
  type: string;
  param?: string | null;
  code?: string | null;
  retryAfterMs?: number;
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  response.end(JSON.stringify(body));
}

export function errorBody(error: OpenAiError) {
  return { error: { message: error.message, type: error.type, param: error.param ?? null, code: error.code ?? null } };
}

export function sendError(response: ServerResponse, error: OpenAiError): void {
  const headers: Record<string, string> = {};
  if (error.retryAfterMs !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
  sendJson(response, error.status, errorBody(error), headers);
}

/** A gateway method's refusal as the HTTP status and OpenAI error type a client expects. */
export function openAiErrorOf(error: WireError): OpenAiError {
  const base = { message: error.message, retryAfterMs: error.retryAfterMs };
  const code: ErrorCode = error.code;
  switch (code) {
    case 'INVALID_REQUEST':
      return { ...base, status: 400, type: 'invalid_request_error' };
    case 'FORBIDDEN':
    case 'NOT_PAIRED':
      return { ...base, status: 403, type: 'permission_error', code: 'insufficient_scope' };
    case 'NOT_FOUND':
    case 'APPROVAL_NOT_FOUND':
      return { ...base, status: 404, type: 'invalid_request_error', code: 'not_found' };
    case 'RATE_LIMITED':
      return { ...base, status: 429, type: 'rate_limit_error' };
    case 'UNAVAILABLE':
      return { ...base, status: 503, type: 'server_error', code: 'unavailable' };
    case 'PROVIDER_ERROR':
      return { ...base, status: 502, type: 'server_error', code: 'provider_error' };
    case 'INTERNAL':
      return { ...base, status: 500, type: 'server_error' };
    default:
      return assertNever(code);
  }
}

export function usageOf(usage: TokenUsage | undefined) {
  const prompt = usage?.inputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: usage?.cachedInputTokens ?? 0 },
  };
}

/** OpenAI's finish reasons from a Hearth stop reason (tool rounds end inside the turn). */
export function finishReasonOf(stopReason: string | undefined): 'stop' | 'length' | 'content_filter' {
  if (stopReason === 'length' || stopReason === 'max_tokens') return 'length';
  if (stopReason === 'content-filter' || stopReason === 'content_filter') return 'content_filter';
  return 'stop';
}
