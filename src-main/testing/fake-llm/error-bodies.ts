import type { FakeErrorKind, FakeProvider } from './scenario.js';

export interface FakeErrorResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const statusOf: Record<FakeErrorKind, number> = {
  rate_limit: 429,
  auth: 401,
  billing: 402,
  forbidden: 403,
  model_not_found: 404,
  overloaded: 503,
  overloaded_529: 529,
  context_length: 400,
  server_error: 500,
};

/**
 * Each provider's real error body for a failure kind, as their APIs document them, so the
 * classifier is tested against what it will meet in the wild rather than our own invention.
 */
export function errorResponse(
  provider: FakeProvider,
  kind: FakeErrorKind,
  model: string,
  options: { retryAfterSeconds?: number; message?: string } = {},
): FakeErrorResponse {
  const status = statusOf[kind];
  const headers: Record<string, string> = {};
  if (options.retryAfterSeconds !== undefined) headers['retry-after'] = String(options.retryAfterSeconds);
  const body = bodyFor(provider, kind, model, options.message);
  return { status, body, headers };
}

function bodyFor(provider: FakeProvider, kind: FakeErrorKind, model: string, message?: string): unknown {
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses':
      return { error: openAiError(kind, model, message) };
    case 'anthropic':
      return { type: 'error', error: anthropicError(kind, model, message) };
    case 'google':
      return { error: googleError(kind, model, message) };
    case 'ollama':
      return { error: message ?? ollamaMessage(kind, model) };
  }
}

function openAiError(kind: FakeErrorKind, model: string, message?: string) {
  const table: Record<FakeErrorKind, { type: string; code: string | null; message: string }> = {
    rate_limit: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests' },
    auth: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
    billing: {
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: 'You exceeded your current quota, please check your plan and billing details.',
    },
    forbidden: {
      type: 'invalid_request_error',
      code: 'unsupported_country_region_territory',
      message: 'Country, region, or territory not supported',
    },
    model_not_found: {
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
    },
    overloaded: {
      type: 'server_error',
      code: null,
      message: 'The engine is currently overloaded, please try again later',
    },
    overloaded_529: { type: 'server_error', code: null, message: 'The server is overloaded' },
    context_length: {
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130001 tokens.",
    },
    server_error: {
      type: 'server_error',
      code: null,
      message: 'The server had an error while processing your request.',
    },
  };
  const entry = table[kind];
  return { message: message ?? entry.message, type: entry.type, param: null, code: entry.code };
}

function anthropicError(kind: FakeErrorKind, model: string, message?: string) {
  const table: Record<FakeErrorKind, { type: string; message: string }> = {
    rate_limit: {
      type: 'rate_limit_error',
      message: 'Number of request tokens has exceeded your per-minute rate limit',
    },
    auth: { type: 'authentication_error', message: 'invalid x-api-key' },
    billing: { type: 'billing_error', message: 'Your credit balance is too low to access the Anthropic API.' },
    forbidden: {
      type: 'permission_error',
      message: 'Your API key does not have permission to use the specified resource.',
    },
    model_not_found: { type: 'not_found_error', message: `model: ${model}` },
    overloaded: { type: 'overloaded_error', message: 'Overloaded' },
    overloaded_529: { type: 'overloaded_error', message: 'Overloaded' },
    context_length: { type: 'invalid_request_error', message: 'prompt is too long: 210012 tokens > 200000 maximum' },
    server_error: { type: 'api_error', message: 'Internal server error' },
  };
  const entry = table[kind];
  return { type: entry.type, message: message ?? entry.message };
}

function googleError(kind: FakeErrorKind, model: string, message?: string) {
  const table: Record<FakeErrorKind, { code: number; status: string; message: string }> = {
    rate_limit: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' },
    auth: { code: 401, status: 'UNAUTHENTICATED', message: 'API key not valid. Please pass a valid API key.' },
    billing: { code: 402, status: 'FAILED_PRECONDITION', message: 'Billing account is not active.' },
    forbidden: { code: 403, status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
    model_not_found: {
      code: 404,
      status: 'NOT_FOUND',
      message: `models/${model} is not found for API version v1beta, or is not supported for generateContent.`,
    },
    overloaded: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
    overloaded_529: { code: 529, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
    context_length: {
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
    },
    server_error: { code: 500, status: 'INTERNAL', message: 'An internal error has occurred.' },
  };
  const entry = table[kind];
  return { code: entry.code, message: message ?? entry.message, status: entry.status };
}

function ollamaMessage(kind: FakeErrorKind, model: string): string {
  switch (kind) {
    case 'model_not_found':
      return `model "${model}" not found, try pulling it first`;
    case 'context_length':
      return 'input length exceeds the context length';
    case 'overloaded':
    case 'overloaded_529':
      return 'server busy, please try again. maximum pending requests exceeded';
    case 'rate_limit':
      return 'too many requests';
    case 'auth':
    case 'forbidden':
      return 'unauthorized';
    case 'billing':
      return 'payment required';
    case 'server_error':
      return 'llama runner process has terminated';
  }
}
