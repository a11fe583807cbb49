import { FailoverError, type FailoverReason } from './failover-error.js';

export interface FailureClassification {
  reason: FailoverReason;
  status?: number;
  retryAfterMs?: number;
  /** The most specific message found along the cause chain. */
  message: string;
}

const statusReasons: Record<number, FailoverReason> = {
  400: 'format',
  401: 'auth',
  402: 'billing',
  403: 'auth_permanent',
  404: 'model_not_found',
  408: 'timeout',
  410: 'session_expired',
  413: 'context_overflow',
  422: 'format',
  429: 'rate_limit',
  500: 'server_error',
  502: 'server_error',
  503: 'overloaded',
  504: 'timeout',
  529: 'overloaded',
};

// Provider error codes and phrases, most specific first. Matched against the error body and message.
const codePatterns: [RegExp, FailoverReason][] = [
  [
    /context_length_exceeded|prompt is too long|maximum context length|exceeds the maximum number of tokens|input length exceeds the context length|too many tokens|context window/i,
    'context_overflow',
  ],
  [/insufficient_quota|billing_error|credit balance|billing|payment required|quota exceeded for .*billing/i, 'billing'],
  [
    /RESOURCE_EXHAUSTED|ThrottlingException|rate_limit_error|rate_limit_exceeded|too many requests|rate limit/i,
    'rate_limit',
  ],
  [
    /overloaded_error|ServiceUnavailableException|ModelNotReadyException|\bUNAVAILABLE\b|overloaded|server busy/i,
    'overloaded',
  ],
  [
    /authentication_error|invalid_api_key|UNAUTHENTICATED|UnrecognizedClientException|incorrect api key|invalid x-api-key/i,
    'auth',
  ],
  [/permission_error|PERMISSION_DENIED|AccessDeniedException/i, 'auth_permanent'],
  [
    /model_not_found|not_found_error|ResourceNotFoundException|model .* not found|is not found for api version/i,
    'model_not_found',
  ],
  [/invalid_request_error|INVALID_ARGUMENT|ValidationException/i, 'format'],
];

const errnoReasons: Record<string, FailoverReason> = {
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  ECONNRESET: 'timeout',
  EPIPE: 'timeout',
  ECONNABORTED: 'timeout',
  UND_ERR_SOCKET: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  EAI_AGAIN: 'timeout',
  ECONNREFUSED: 'server_error',
  ENOTFOUND: 'server_error',
  EHOSTUNREACH: 'server_error',
};

// SDK error names that say what happened without a status.
const nameReasons: Record<string, FailoverReason> = {
  AI_NoOutputGeneratedError: 'empty_response',
  EmptyResponseError: 'empty_response',
  AI_JSONParseError: 'server_error',
  AI_TypeValidationError: 'server_error',
  AI_InvalidResponseDataError: 'server_error',
  AI_EmptyResponseBodyError: 'empty_response',
  TimeoutError: 'timeout',
};

type Fields = Record<string, unknown>;

/**
 * One recursive classifier for every provider: HTTP status → provider error codes →
 * errno → the `cause` chain → timeout heuristics. `now` turns an HTTP-date retry-after into ms.
 */
export function classifyFailure(error: unknown, now = 0): FailureClassification {
  // Our own failures (a used-up spend cap, thrown before the request left) already know their reason.
  if (error instanceof FailoverError) return { reason: error.reason, message: error.message };
  return classifyAt(error, now, 0) ?? { reason: 'unknown', message: messageOf(error) };
}

function classifyAt(error: unknown, now: number, depth: number): FailureClassification | undefined {
  if (error === null || error === undefined || depth > 6) return undefined;
  const fields = (typeof error === 'object' ? error : {}) as Fields;
  const message = messageOf(error);
  const text = `${message} ${bodyText(fields)}`;
  const status = statusOf(fields);
  const retryAfterMs = retryAfterOf(fields, now);
  const codeReason = codePatterns.find(([pattern]) => pattern.test(text))?.[1];

  if (status !== undefined) {
    let reason = statusReasons[status] ?? (status >= 500 ? 'server_error' : 'unknown');
    // A body can be more specific than its status: OpenAI sends quota exhaustion as 429, overflow as 400.
    if (
      codeReason &&
      (codeReason === 'billing' || codeReason === 'context_overflow' || reason === 'format' || reason === 'unknown')
    ) {
      reason = codeReason;
    }
    return { reason, status, retryAfterMs, message };
  }
  if (codeReason) return { reason: codeReason, retryAfterMs, message };

  const code =
    typeof fields.code === 'string' ? fields.code : typeof fields.errno === 'string' ? fields.errno : undefined;
  if (code && errnoReasons[code]) return { reason: errnoReasons[code], message };

  const name = typeof fields.name === 'string' ? fields.name : undefined;
  const fromCause = classifyAt(fields.cause, now, depth + 1);
  if (fromCause) return { ...fromCause, message: fromCause.message || message };

  if (name && nameReasons[name]) return { reason: nameReasons[name], message };
  if (/timed? ?out|timeout|terminated|socket hang up|other side closed/i.test(message))
    return { reason: 'timeout', message };
  return undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && typeof (error as Fields).message === 'string')
    return (error as Fields).message as string;
  return typeof error === 'string' ? error : '';
}

function statusOf(fields: Fields): number | undefined {
  for (const key of ['statusCode', 'status', '$metadata']) {
    const value = key === '$metadata' ? (fields.$metadata as Fields | undefined)?.httpStatusCode : fields[key];
    if (typeof value === 'number' && value >= 400 && value < 600) return value;
  }
  return undefined;
}

function bodyText(fields: Fields): string {
  const parts: string[] = [];
  if (typeof fields.responseBody === 'string') parts.push(fields.responseBody);
  if (fields.data !== undefined) parts.push(safeJson(fields.data));
  if (typeof fields.code === 'string') parts.push(fields.code);
  if (typeof fields.type === 'string') parts.push(fields.type);
  if (typeof fields.name === 'string' && /Exception$/.test(fields.name)) parts.push(fields.name);
  return parts.join(' ');
}

function retryAfterOf(fields: Fields, now: number): number | undefined {
  const headers = fields.responseHeaders as Record<string, string> | undefined;
  if (!headers) return undefined;
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0 && headers['retry-after-ms'] !== undefined) return ms;
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) && now > 0 ? Math.max(0, at - now) : undefined;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
