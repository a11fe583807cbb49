import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { errorResponse } from './error-bodies.js';
import {
  type FakeMatch,
  type FakeProvider,
  type FakeReply,
  type FakeReplySource,
  type FakeRequestInfo,
  ScenarioQueue,
} from './scenario.js';
import { anthropicWire } from './wire-anthropic.js';
import type { RenderedReply, WireFormat } from './wire-format.js';
import { geminiWire } from './wire-gemini.js';
import { ollamaWire } from './wire-ollama.js';
import { openAiChatWire } from './wire-openai-chat.js';
import { openAiResponsesWire } from './wire-openai-responses.js';

/** Which SDK a base URL is for; each gets its own path prefix so recorded requests say who called. */
export type FakeBaseUrlKind =
  | 'openai'
  | 'anthropic'
  | 'google'
  | 'ollama'
  | 'ollama-host'
  | 'azure'
  | 'openai-compatible';

export interface FakeLlmRequest {
  provider: FakeProvider;
  path: string;
  model: string;
  /** Request headers with credentials replaced by `<redacted>`. */
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** o200k tokens over JSON of messages (with system) + tools. */
  promptTokens: number;
  /** Last 4 characters of the credential sent, so tests can tell profiles apart without storing secrets. */
  keyTail?: string;
  replyType: FakeReply['type'];
  /** Tool results in the prompt, as the provider's format carries them. */
  toolResultCount: number;
  lastUserText: string;
  /** The token counts the reply reported (set once the reply is rendered; none for errors). */
  reportedUsage?: { input: number; output: number; cached: number };
  /** The fake's own time on this request, ms: from its headers to the last byte of the reply. */
  handledMs?: number;
}

export interface FakeLlmServerOptions {
  /** Answer when no scripted reply matches (default: echo the last user message). */
  defaultReply?: FakeReplySource;
  /** Models listed by Ollama's GET /api/tags. */
  ollamaModels?: string[];
  /**
   * Models listed by GET …/models (OpenAI's list format; Anthropic's under /anthropic/v1/models).
   * Default: a few of each provider's real ids.
   */
  listedModels?: string[];
  /** Azure deployments that exist (under /azure/…/deployments/<name>/); any name when unset. */
  azureDeployments?: string[];
  /**
   * When set, only these API keys are served: any other key (or none) gets the provider's 401,
   * as a hosted provider refuses a wrong key, on model lists and completions alike.
   */
  acceptKeys?: string[];
  port?: number;
}

export interface FakeLlmServer {
  url: string;
  baseUrlFor(kind: FakeBaseUrlKind): string;
  /** Queue replies served in order to requests matching `match` (default: any request). */
  script(replies: FakeReplySource | FakeReplySource[], match?: FakeMatch): void;
  setDefault(reply: FakeReplySource): void;
  readonly requests: FakeLlmRequest[];
  /** Scripted replies not yet served. */
  readonly pending: number;
  reset(): void;
  close(): Promise<void>;
}

const credentialHeaders = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];

function wireFor(method: string, path: string): WireFormat | 'tags' | 'models' | undefined {
  if (method === 'GET' && path.endsWith('/api/tags')) return 'tags';
  if (method === 'GET' && path.endsWith('/models')) return 'models';
  if (method !== 'POST') return undefined;
  if (path.endsWith('/chat/completions')) return openAiChatWire;
  if (path.endsWith('/responses')) return openAiResponsesWire;
  if (path.endsWith('/messages')) return anthropicWire;
  if (path.includes(':streamGenerateContent')) return geminiWire;
  if (path.endsWith('/api/chat')) return ollamaWire;
  return undefined;
}

/** A loopback server speaking the real streaming wire formats of the providers we support. */
export async function startFakeLlmServer(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const queue = new ScenarioQueue(options.defaultReply);
  const requests: FakeLlmRequest[] = [];
  let counter = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // The benchmark subtracts the fake's own time from a turn (the fake runs in its own process).
    if (req.method === 'GET' && path === '/_fake/timings') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(requests.map((request) => request.handledMs ?? 0)));
      return;
    }
    const started = performance.now();
    const wire = wireFor(req.method ?? 'GET', path);
    // Azure OpenAI: the key in `api-key` (never a bearer token), a dated api-version on the
    // deployments path, and only the deployments that exist (Azure's own error bodies).
    if (path.startsWith('/azure/') && wire && wire !== 'tags' && wire !== 'models') {
      const refusal = azureRefusal(req, path, options);
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: refusal.error }));
        return;
      }
    }
    const key = redactHeaders(req).apiKey;
    if (wire && options.acceptKeys && (key === undefined || !options.acceptKeys.includes(key))) {
      const provider = path.startsWith('/anthropic/')
        ? 'anthropic'
        : path.startsWith('/google/')
          ? 'google'
          : 'openai-chat';
      const error = errorResponse(
        wire === 'tags' ? 'ollama' : wire === 'models' ? provider : wire.provider,
        'auth',
        '',
      );
      res.writeHead(error.status, { 'content-type': 'application/json', ...error.headers });
      res.end(JSON.stringify(error.body));
      return;
    }
    if (wire === 'models') {
      const ids = options.listedModels ?? ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5'];
      // Each API's documented list shape: Anthropic pages with first_id/last_id, OpenAI is a plain list.
      const body = path.startsWith('/anthropic/')
        ? {
            data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: new Date(0).toISOString() })),
            has_more: false,
            first_id: ids[0] ?? null,
            last_id: ids.at(-1) ?? null,
          }
        : {
            object: 'list',
            data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
          };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
      return;
    }
    if (wire === 'tags') {
      const models = (options.ollamaModels ?? ['llama3.2:latest']).map((name) => ({
        name,
        model: name,
        modified_at: new Date(0).toISOString(),
        size: 1,
        digest: 'sha256:0',
        details: { family: 'llama' },
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models }));
      return;
    }
    if (!wire) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`fake-llm: no route for ${req.method} ${path}`);
      return;
    }
    const raw = await readBody(req);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'request body is not JSON' } }));
      return;
    }
    const { headers, apiKey } = redactHeaders(req);
    const model = wire.modelOf(body, path);
    const info: FakeRequestInfo = {
      provider: wire.provider,
      model,
      lastUserText: wire.lastUserText(body),
      toolResultCount: wire.toolResultCount(body),
    };
    const reply = queue.next(info, apiKey);
    const promptTokens = countTokens(JSON.stringify(wire.promptOf(body)));
    const record: FakeLlmRequest = {
      provider: wire.provider,
      path,
      model,
      headers,
      body,
      promptTokens,
      keyTail: apiKey?.slice(-4),
      replyType: reply.type,
      toolResultCount: info.toolResultCount,
      lastUserText: info.lastUserText,
    };
    requests.push(record);
    await respond(res, wire, reply, model, promptTokens, record);
    record.handledMs = performance.now() - started;
  }

  async function respond(
    res: ServerResponse,
    wire: WireFormat,
    reply: FakeReply,
    model: string,
    promptTokens: number,
    record: FakeLlmRequest,
  ): Promise<void> {
    if (reply.type === 'error') {
      const error = errorResponse(wire.provider, reply.error, model, reply);
      res.writeHead(error.status, { 'content-type': 'application/json', ...error.headers });
      res.end(JSON.stringify(error.body));
      return;
    }
    res.writeHead(200, { 'content-type': wire.contentType, 'cache-control': 'no-cache' });
    if (reply.type === 'garbage') {
      res.end(wire.contentType === 'text/event-stream' ? 'data: <html>garbage</html>\n\n' : '<html>garbage</html>\n');
      return;
    }
    const rendered = renderReply(reply, promptTokens, ++counter);
    record.reportedUsage = rendered.usage;
    const frames = wire.render(rendered, model);
    if (reply.type === 'text' && reply.firstTokenDelayMs) {
      const closed = await delayUnlessClosed(res, reply.firstTokenDelayMs);
      if (closed) return;
    }
    for (const frame of frames.head) res.write(frame);
    if (reply.type === 'die_midway') {
      for (const frame of frames.body.slice(0, Math.max(1, Math.floor(frames.body.length / 2)))) res.write(frame);
      // Let the written frames reach the client before the connection drops.
      await new Promise((resolve) => setTimeout(resolve, 5));
      res.socket?.destroy();
      return;
    }
    for (const frame of frames.body) res.write(frame);
    for (const frame of frames.tail) res.write(frame);
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    baseUrlFor(kind) {
      switch (kind) {
        case 'openai':
          return `${url}/openai/v1`;
        case 'anthropic':
          return `${url}/anthropic/v1`;
        case 'google':
          return `${url}/google/v1beta`;
        case 'ollama':
          return `${url}/ollama/api`;
        case 'ollama-host':
          return `${url}/ollama`;
        case 'azure':
          return `${url}/azure/openai`;
        case 'openai-compatible':
          return `${url}/compat/v1`;
      }
    },
    script(replies, match) {
      queue.push(Array.isArray(replies) ? replies : [replies], match);
    },
    setDefault(reply) {
      queue.setDefault(reply);
    },
    requests,
    get pending() {
      return queue.pending;
    },
    reset() {
      queue.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function renderReply(reply: FakeReply, promptTokens: number, n: number): RenderedReply {
  const base = { created: 1_700_000_000 + n, responseId: `resp_${n}_${randomUUID().slice(0, 8)}` };
  let text = '';
  let chunkSize = 8;
  let cached = 0;
  const toolCalls: RenderedReply['toolCalls'] = [];
  if (reply.type === 'text') {
    text = reply.text;
    chunkSize = reply.chunkSize ?? 8;
    cached = reply.cachedTokens ?? 0;
  } else if (reply.type === 'die_midway') {
    text = reply.text;
  } else if (reply.type === 'tool_calls') {
    text = reply.text ?? '';
    cached = reply.cachedTokens ?? 0;
    reply.calls.forEach((call, index) => {
      toolCalls.push({ id: call.id ?? `call_${n}_${index}`, name: call.name, args: JSON.stringify(call.input ?? {}) });
    });
  }
  const textChunks: string[] = [];
  for (let i = 0; i < text.length; i += chunkSize) textChunks.push(text.slice(i, i + chunkSize));
  const output = countTokens(text) + toolCalls.reduce((sum, call) => sum + countTokens(call.args), 0);
  return {
    ...base,
    textChunks,
    toolCalls,
    usage: { input: promptTokens, output, cached: Math.min(cached, promptTokens) },
  };
}

function azureRefusal(
  req: IncomingMessage,
  path: string,
  options: FakeLlmServerOptions,
): { status: number; error: { code: string; message: string } } | undefined {
  const key = req.headers['api-key'];
  if (typeof key !== 'string' || !key) {
    return {
      status: 401,
      error: {
        code: '401',
        message:
          'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
      },
    };
  }
  if (options.acceptKeys && !options.acceptKeys.includes(key)) {
    return {
      status: 401,
      error: {
        code: '401',
        message:
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      },
    };
  }
  const deployment = /\/deployments\/([^/]+)\//.exec(path)?.[1];
  if (deployment === undefined) return undefined;
  const version = new URL(req.url ?? '/', 'http://fake').searchParams.get('api-version');
  if (!version || !/^\d{4}-\d{2}-\d{2}(-preview)?$/.test(version)) {
    return { status: 404, error: { code: '404', message: 'Resource not found' } };
  }
  if (options.azureDeployments && !options.azureDeployments.includes(decodeURIComponent(deployment))) {
    return {
      status: 404,
      error: {
        code: 'DeploymentNotFound',
        message:
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
      },
    };
  }
  return undefined;
}

function redactHeaders(req: IncomingMessage): { headers: Record<string, string>; apiKey?: string } {
  const headers: Record<string, string> = {};
  let apiKey: string | undefined;
  for (const [name, value] of Object.entries(req.headers)) {
    const text = Array.isArray(value) ? value.join(', ') : (value ?? '');
    if (credentialHeaders.includes(name)) {
      apiKey ??= text.replace(/^Bearer\s+/i, '');
      headers[name] = '<redacted>';
    } else headers[name] = text;
  }
  return { headers, apiKey };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Waits, but returns early (true) if the client hung up, as an aborted request does. */
function delayUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    res.once('close', onClose);
  });
}
