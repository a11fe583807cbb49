import type { ProviderKind } from './provider-config.js';

/**
 * Asking a provider which models it serves: the cheapest real request each API has, so it both
 * tests a key (onboarding's Test connection, the auth probe) and lists what the person can pick.
 */
export interface ListProviderModelsInput {
  /** A provider kind (`providers.<id>.kind`); a plugin's kind has no known list and is reported so. */
  kind: string;
  /** The API root as configured (e.g. `https://api.openai.com/v1`); the kind's public one when omitted. */
  baseURL?: string;
  /** Sent as the kind's credential header; omitted for servers that need none (Ollama, LM Studio). */
  apiKey?: string;
  headers?: Record<string, string>;
  fetch: typeof globalThis.fetch;
  /** A provider that does not answer in this time is reported as down, not waited on. */
  timeoutMs?: number;
}

/** Why a listing failed, in words the UI can act on. */
export type ModelListingProblem = 'auth' | 'down' | 'timeout' | 'http' | 'format' | 'unsupported' | 'bad_input';

export type ModelListing =
  | { ok: true; url: string; models: string[] }
  | { ok: false; url?: string; problem: ModelListingProblem; status?: number; message: string };

/** Public API roots, used when a provider entry names no baseURL. */
export const defaultBaseURLs: Partial<Record<ProviderKind, string>> = {
  openai: 'https://api.openai.com/v1',
  'openai-responses': 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  ollama: 'http://127.0.0.1:11434/api',
};

const defaultTimeoutMs = 8_000;

interface ListRequest {
  url: string;
  headers: Record<string, string>;
  read(body: unknown): string[] | undefined;
}

const ids = (list: unknown, field: string, strip = ''): string[] | undefined => {
  if (!Array.isArray(list)) return undefined;
  return list
    .map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined))
    .filter((id): id is string => typeof id === 'string')
    .map((id) => (strip && id.startsWith(strip) ? id.slice(strip.length) : id));
};

function requestFor(input: ListProviderModelsInput, root: string): ListRequest | string {
  const key = input.apiKey?.trim();
  const extra = input.headers ?? {};
  switch (input.kind) {
    case 'openai':
    case 'openai-responses':
    case 'openai-compatible':
      // GET /models (OpenAI's "List models"); OpenAI-compatible servers answer the same list.
      return {
        url: `${root}/models`,
        headers: { ...extra, ...(key ? { authorization: `Bearer ${key}` } : {}) },
        read: (body) => ids((body as { data?: unknown }).data, 'id'),
      };
    case 'anthropic':
      return {
        url: `${root}/models`,
        headers: { ...extra, 'anthropic-version': '2023-06-01', ...(key ? { 'x-api-key': key } : {}) },
        read: (body) => ids((body as { data?: unknown }).data, 'id'),
      };
    case 'google':
      return {
        url: `${root}/models`,
        headers: { ...extra, ...(key ? { 'x-goog-api-key': key } : {}) },
        read: (body) => ids((body as { models?: unknown }).models, 'name', 'models/'),
      };
    case 'ollama':
      // The configured baseURL ends in /api (what the SDK wants); the tag list is under it.
      return {
        url: `${root.replace(/\/api$/, '')}/api/tags`,
        headers: extra,
        read: (body) => ids((body as { models?: unknown }).models, 'name'),
      };
    default:
      // Azure lists deployments per resource, Bedrock needs signed AWS calls, plugins are their own.
      return `${input.kind} has no model list Hearth can ask with a key alone; save it and send a message to check it`;
  }
}

/** The provider's own words for a refusal (OpenAI, Anthropic and Google nest them under `error`). */
function refusalText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = body.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: a proxy's HTML page or plain text; show its start.
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

function networkProblem(error: unknown, url: string): ModelListing {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return { ok: false, url, problem: 'timeout', message: `${url} did not answer in time` };
  }
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code;
  const host = new URL(url).host;
  if (code === 'ECONNREFUSED') {
    return { ok: false, url, problem: 'down', message: `nothing is listening at ${host} (connection refused)` };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return { ok: false, url, problem: 'down', message: `cannot find the server ${host} (${code})` };
  }
  const detail = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return { ok: false, url, problem: 'down', message: `cannot reach ${host}: ${detail}` };
}

/** One GET of the provider's model list; never throws, every failure says what went wrong. */
export async function listProviderModels(input: ListProviderModelsInput): Promise<ModelListing> {
  const unsupported = requestFor(input, 'http://unused');
  if (typeof unsupported === 'string') return { ok: false, problem: 'unsupported', message: unsupported };
  const base = input.baseURL?.trim() || defaultBaseURLs[input.kind as ProviderKind];
  if (!base) {
    return {
      ok: false,
      problem: 'bad_input',
      message: `${input.kind} needs a base URL (e.g. http://127.0.0.1:1234/v1)`,
    };
  }
  let root: string;
  try {
    const parsed = new URL(base);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
    root = base.replace(/\/+$/, '');
  } catch {
    return { ok: false, problem: 'bad_input', message: `base URL "${base}" is not an http(s) URL` };
  }
  const request = requestFor(input, root) as ListRequest;
  let response: Response;
  try {
    response = await input.fetch(request.url, {
      headers: request.headers,
      signal: AbortSignal.timeout(input.timeoutMs ?? defaultTimeoutMs),
    });
  } catch (error) {
    return networkProblem(error, request.url);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const said = refusalText(text);
    const status = response.status;
    const problem = status === 401 || status === 403 ? 'auth' : 'http';
    const what = problem === 'auth' ? `refused the key (HTTP ${status})` : `answered HTTP ${status}`;
    return { ok: false, url: request.url, problem, status, message: `${new URL(request.url).host} ${what}: ${said}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, url: request.url, problem: 'format', message: `${request.url} did not answer JSON` };
  }
  const models = body && typeof body === 'object' ? request.read(body) : undefined;
  if (!models) {
    return { ok: false, url: request.url, problem: 'format', message: `${request.url} answered without a model list` };
  }
  return { ok: true, url: request.url, models: [...new Set(models)].sort() };
}
