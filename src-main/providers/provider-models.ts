import {
  awsAccessKeyIdPattern,
  awsRegionPattern,
  azureApiVersionPattern,
  azureDeploymentPattern,
  azureResourcePattern,
} from '../protocol/index.js';
import { type AwsCredentials, signAwsRequest } from './aws-sigv4.js';
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
  /** Azure: the resource's name (`<name>.openai.azure.com`), when no baseURL is given. */
  resourceName?: string;
  /** Azure: the deployment a Test connection sends its one-line request to. */
  deployment?: string;
  /** Azure: api-version, `v1` or a date like `2024-10-21`. */
  apiVersion?: string;
  /**
   * Only whether the key works (the auth probe, which knows no deployment): Azure lists the
   * resource's models (`GET …/openai/models`) instead of calling a deployment.
   */
  keyOnly?: boolean;
  /** Bedrock: the AWS region (e.g. `us-east-1`). */
  region?: string;
  /** Bedrock: an access key pair; else `apiKey` holding their JSON (as the secret store keeps it). */
  aws?: AwsCredentials;
  fetch: typeof globalThis.fetch;
  /** A provider that does not answer in this time is reported as down, not waited on. */
  timeoutMs?: number;
}

/** Why a listing failed, in words the UI can act on. */
export type ModelListingProblem = 'auth' | 'down' | 'timeout' | 'http' | 'format' | 'unsupported' | 'bad_input';

export type ModelListing =
  | { ok: true; url: string; models: string[] }
  | {
      ok: false;
      url?: string;
      problem: ModelListingProblem;
      status?: number;
      /** With `bad_input`: the setup field that is wrong (`region`, `deployment`, …). */
      field?: string;
      message: string;
    };

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
  method?: 'GET' | 'POST';
  body?: string;
  /** For an answer that is not one JSON document (a stream): reads the models from its text. */
  readText?(text: string): string[] | undefined;
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
    case 'azure': {
      // Azure's data plane has no deployment list a key may read: one short chat request to the
      // named deployment checks the key, the deployment and the api-version at once.
      const deployment = input.deployment?.trim() ?? '';
      const apiVersion = input.apiVersion?.trim() || 'v1';
      if (input.keyOnly && !deployment) {
        const dated = apiVersion === 'v1' ? defaultAzureModelsVersion : apiVersion;
        return {
          url: `${root}/models?api-version=${dated}`,
          headers: { ...extra, ...(key ? { 'api-key': key } : {}) },
          read: (body) => ids((body as { data?: unknown }).data, 'id'),
        };
      }
      return {
        url: azureChatURL(root, input.baseURL?.trim() ? root : undefined, deployment, apiVersion),
        method: 'POST',
        headers: { ...extra, 'content-type': 'application/json', ...(key ? { 'api-key': key } : {}) },
        // Streamed, as the chat itself streams: the first event proves the deployment answers.
        body: JSON.stringify({
          ...(apiVersion === 'v1' ? { model: deployment } : {}),
          messages: [{ role: 'user', content: 'ping' }],
          stream: true,
        }),
        read: () => undefined,
        readText: (text) => (/^data: *\{/m.test(text) || text.includes('"choices"') ? [deployment] : undefined),
      };
    }
    case 'bedrock':
      // ListFoundationModels (the control plane, SigV4-signed below), text models only.
      return {
        url: `${root}/foundation-models?byOutputModality=TEXT`,
        headers: { ...extra },
        read: (body) => ids((body as { modelSummaries?: unknown }).modelSummaries, 'modelId'),
      };
    default:
      // A plugin's kind: its own API, nothing Hearth knows how to ask.
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
  const aws = input.kind === 'bedrock' ? (input.aws ?? awsCredentialsFromSecret(input.apiKey)) : undefined;
  const wrong = setupFieldProblem({
    ...input,
    ...(input.keyOnly && input.kind === 'azure' && !input.deployment?.trim() ? { deployment: 'any' } : {}),
    aws: input.kind === 'bedrock' ? (aws ?? {}) : undefined,
  });
  if (wrong) return { ok: false, problem: 'bad_input', field: wrong.field, message: wrong.message };
  const base = input.baseURL?.trim() || defaultBaseURLs[input.kind as ProviderKind] || kindRoot(input);
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
  const headers =
    aws && input.region
      ? signAwsRequest({
          method: request.method ?? 'GET',
          url: request.url,
          region: input.region.trim(),
          service: 'bedrock',
          credentials: aws,
          headers: request.headers,
        })
      : request.headers;
  let response: Response;
  try {
    response = await input.fetch(request.url, {
      method: request.method ?? 'GET',
      headers,
      ...(request.body ? { body: request.body } : {}),
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
  if (request.readText) {
    const models = request.readText(text);
    if (!models) {
      return { ok: false, url: request.url, problem: 'format', message: `${request.url} answered without a reply` };
    }
    return { ok: true, url: request.url, models };
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

/** Azure's "Models - List" on a dated api-version: what a v1 resource is probed with too. */
const defaultAzureModelsVersion = '2024-10-21';

/** Azure's chat URL for a deployment, built as @ai-sdk/azure builds it for the same settings. */
function azureChatURL(root: string, baseURL: string | undefined, deployment: string, apiVersion: string): string {
  if (apiVersion !== 'v1') {
    return `${root}/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${apiVersion}`;
  }
  const url = baseURL ? new URL(baseURL) : undefined;
  const host = url?.hostname ?? '.openai.azure.com';
  const azureHost = ['.openai.azure.com', '.services.ai.azure.com', '.cognitiveservices.azure.com'].some((h) =>
    host.endsWith(h),
  );
  const path = (url?.pathname ?? '').replace(/\/+$/, '').toLowerCase();
  const versioned = azureHost && path.endsWith('/openai/v1');
  const project = host.endsWith('.services.ai.azure.com') && path.startsWith('/api/projects/');
  const full = !azureHost || versioned ? `${root}/chat/completions` : `${root}/v1/chat/completions`;
  return azureHost && !versioned && !project ? `${full}?api-version=v1` : full;
}

/** The API root a kind derives from its other fields when no base URL is given. */
function kindRoot(input: ListProviderModelsInput): string | undefined {
  if (input.kind === 'azure' && input.resourceName?.trim()) {
    return `https://${input.resourceName.trim()}.openai.azure.com/openai`;
  }
  if (input.kind === 'bedrock' && input.region?.trim()) return `https://bedrock.${input.region.trim()}.amazonaws.com`;
  return undefined;
}

/** A secret as the store keeps Bedrock's: JSON with accessKeyId / secretAccessKey / sessionToken. */
export function awsCredentialsFromSecret(secret: string | undefined): AwsCredentials | undefined {
  if (!secret?.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(secret) as Record<string, unknown>;
    if (typeof value.accessKeyId !== 'string' || typeof value.secretAccessKey !== 'string') return undefined;
    return {
      accessKeyId: value.accessKeyId,
      secretAccessKey: value.secretAccessKey,
      ...(typeof value.sessionToken === 'string' ? { sessionToken: value.sessionToken } : {}),
    };
  } catch {
    return undefined;
  }
}

export interface SetupFieldProblem {
  /** The setup form's field: `resourceName`, `baseURL`, `deployment`, `apiVersion`, `region`, `accessKeyId`, … */
  field: string;
  message: string;
}

/**
 * What is wrong with an Azure or Bedrock setup before anything is sent, naming the field:
 * shared by Test connection and Save so both refuse the same input the same way.
 */
export function setupFieldProblem(input: {
  kind: string;
  baseURL?: string;
  resourceName?: string;
  deployment?: string;
  apiVersion?: string;
  region?: string;
  aws?: Partial<AwsCredentials>;
}): SetupFieldProblem | undefined {
  if (input.kind === 'azure') {
    const resource = input.resourceName?.trim();
    if (!resource && !input.baseURL?.trim()) {
      return { field: 'resourceName', message: 'Azure needs the resource name (e.g. "my-resource") or a base URL' };
    }
    if (resource && !azureResourcePattern.test(resource)) {
      return {
        field: 'resourceName',
        message: `resource name "${resource}" is not an Azure resource name: use the name only (letters, digits, -), or put a full URL in Base URL`,
      };
    }
    const deployment = input.deployment?.trim();
    if (!deployment)
      return { field: 'deployment', message: 'Azure needs the deployment name (as in Azure AI Foundry → Deployments)' };
    if (!azureDeploymentPattern.test(deployment)) {
      return { field: 'deployment', message: `deployment "${deployment}" may hold only letters, digits, . _ -` };
    }
    const version = input.apiVersion?.trim();
    if (version && !azureApiVersionPattern.test(version)) {
      return { field: 'apiVersion', message: `api version "${version}" is not "v1" or a date like 2024-10-21` };
    }
  }
  if (input.kind === 'bedrock') {
    const region = input.region?.trim();
    if (!region) return { field: 'region', message: 'Bedrock needs the AWS region (e.g. us-east-1)' };
    if (!awsRegionPattern.test(region))
      return { field: 'region', message: `region "${region}" is not an AWS region like us-east-1` };
    if (input.aws) {
      const keyId = input.aws.accessKeyId?.trim();
      if (!keyId) return { field: 'accessKeyId', message: 'Bedrock needs an access key ID (AKIA… or ASIA…)' };
      if (!awsAccessKeyIdPattern.test(keyId)) {
        return {
          field: 'accessKeyId',
          message: 'the access key ID is capital letters and digits, like AKIAIOSFODNN7EXAMPLE',
        };
      }
      if (!input.aws.secretAccessKey?.trim())
        return { field: 'secretAccessKey', message: 'Bedrock needs the secret access key' };
      if (/\s/.test(input.aws.secretAccessKey.trim())) {
        return { field: 'secretAccessKey', message: 'the secret access key has spaces in it: paste it again' };
      }
      if (keyId.startsWith('ASIA') && !input.aws.sessionToken?.trim()) {
        return { field: 'sessionToken', message: 'an ASIA… key is temporary: it needs its session token' };
      }
    }
  }
  return undefined;
}
