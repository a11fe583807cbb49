import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { PeerInfo } from '../gateway/auth/handshake.js';
import type { CallerIdentity } from '../gateway/caller.js';
import type { HttpRoute } from '../gateway/http-route-registry.js';
import { methodTable, type Scope } from '../protocol/index.js';
import { MODEL_PREFIX, OpenAiRequestError, parseChatCompletionRequest } from './chat-request.js';
import { BodyError, httpCallerFor, readJsonBody } from './http-caller.js';
import { errorBody, finishReasonOf, openAiErrorOf, sendError, sendJson, usageOf } from './openai-wire.js';
import { type ApiGateway, channelFor, runChatTurn } from './run-turn.js';

export interface OpenAiApiDeps {
  gateway: ApiGateway;
  /** Read per request: `gateway.openaiApi.enabled` applies without a restart. */
  enabled(): boolean;
  /** The configured agent ids (main + agents.list), as config says now. */
  agents(): string[];
  clock: Clock;
  log: Logger;
  newId?: () => string;
  maxBodyBytes?: number;
}

/** The header that names the session a request runs in (else the `user` field, else "openai"). */
export const SESSION_HEADER = 'x-hearth-session';
const CHAT_PATH = '/v1/chat/completions';
const MODELS_PATH = '/v1/models';
/** The same scope `chat.send` needs: a token that may chat over a socket may chat here. */
const CHAT_SCOPE: Scope = methodTable['chat.send'].scope as Scope;
const MODELS_SCOPE: Scope = 'operator.read';

/**
 * The OpenAI-compatible API (`/v1/chat/completions`, `/v1/models`) on the gateway's port: a
 * request runs one turn of the agent its `model` names (`hearth/<agentId>`), through `chat.send`.
 */
export function createOpenAiApiRoute(deps: OpenAiApiDeps): HttpRoute {
  const newId = deps.newId ?? randomUUID;
  const maxBodyBytes = deps.maxBodyBytes ?? 4 * 1024 * 1024;
  const createdAt = Math.floor(deps.clock.now() / 1000);

  const authorize = async (
    request: IncomingMessage,
    response: ServerResponse,
    peer: PeerInfo,
    scope: Scope,
  ): Promise<CallerIdentity | undefined> => {
    const result = await httpCallerFor(request, peer, deps.gateway, { scope, clientId: 'openai-api' });
    if (result.ok) return result.caller;
    const type =
      result.status === 401 ? 'authentication_error' : result.status === 403 ? 'permission_error' : 'rate_limit_error';
    const code =
      result.status === 401 ? 'invalid_api_key' : result.status === 403 ? 'insufficient_scope' : 'rate_limited';
    sendError(response, {
      status: result.status,
      type,
      code,
      message: result.message,
      retryAfterMs: result.retryAfterMs,
    });
    return undefined;
  };

  const modelEntry = (agentId: string) => ({
    id: `${MODEL_PREFIX}${agentId}`,
    object: 'model' as const,
    created: createdAt,
    owned_by: 'hearth',
  });

  const chatCompletions = async (request: IncomingMessage, response: ServerResponse, caller: CallerIdentity) => {
    let parsed: ReturnType<typeof parseChatCompletionRequest>;
    try {
      const body = await readJsonBody(request, maxBodyBytes);
      const header = request.headers[SESSION_HEADER];
      parsed = parseChatCompletionRequest(body, {
        sessionHeader: typeof header === 'string' && header.trim() !== '' ? header : undefined,
        knownAgent: (agentId) => deps.agents().includes(agentId),
      });
    } catch (error) {
      if (error instanceof OpenAiRequestError) {
        return sendError(response, {
          status: error.status,
          type: 'invalid_request_error',
          message: error.message,
          param: error.param,
          code: error.code,
        });
      }
      if (error instanceof BodyError) {
        return sendError(response, { status: error.status, type: 'invalid_request_error', message: error.message });
      }
      throw error;
    }
    const id = `chatcmpl-${newId()}`;
    const runId = `openai-${newId()}`;
    const created = Math.floor(deps.clock.now() / 1000);
    const gone = new AbortController();
    // The client hung up before the answer was complete: the run stops (chat.abort), as a Stop button would.
    response.on('close', () => {
      if (!response.writableFinished) gone.abort();
    });
    const head = { id, created, model: parsed.model };
    const turn = { sessionKey: parsed.sessionKey, message: parsed.message, runId, signal: gone.signal };

    if (!parsed.stream) {
      const outcome = await runChatTurn(channelFor(deps.gateway, caller), turn);
      if (!outcome.ok) return sendError(response, openAiErrorOf(outcome.error));
      return sendJson(response, 200, {
        ...head,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: outcome.text, refusal: null },
            logprobs: null,
            finish_reason: finishReasonOf(outcome.stopReason),
          },
        ],
        usage: usageOf(outcome.usage),
      });
    }

    let opened = false;
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({
        ...head,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      })}\n\n`;
    // The stream opens on the first piece of the answer (or the end): a refusal before it
    // (scope, busy gateway, bad session) still gets its HTTP status and error body.
    const open = () => {
      if (opened) return;
      opened = true;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        connection: 'keep-alive',
      });
      response.write(chunk({ role: 'assistant', content: '' }, null));
    };
    const outcome = await runChatTurn(channelFor(deps.gateway, caller), {
      ...turn,
      onDelta: (text) => {
        open();
        response.write(chunk({ content: text }, null));
      },
    });
    if (!outcome.ok && !opened) return sendError(response, openAiErrorOf(outcome.error));
    open();
    if (!outcome.ok) {
      // Mid-stream failure: OpenAI's clients raise an error on an `error` event.
      response.end(`data: ${JSON.stringify(errorBody(openAiErrorOf(outcome.error)))}\n\n`);
      return;
    }
    // A command's reply (or a turn that streamed nothing) still arrives as content.
    if (outcome.stopReason === 'command') response.write(chunk({ content: outcome.text }, null));
    response.write(chunk({}, finishReasonOf(outcome.stopReason)));
    if (parsed.includeUsage) {
      response.write(
        `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [], usage: usageOf(outcome.usage) })}\n\n`,
      );
    }
    response.end('data: [DONE]\n\n');
  };

  return {
    paths: ['/v1/'],
    async handle(request, response, peer) {
      const path = new URL(request.url ?? '/', 'http://gateway.invalid').pathname.replace(/\/+$/, '');
      if (!deps.enabled()) {
        return sendError(response, {
          status: 404,
          type: 'invalid_request_error',
          code: 'api_disabled',
          message: 'the OpenAI-compatible API is off: set gateway.openaiApi.enabled to true in hearth.json',
        });
      }
      const wrongMethod = (allowed: string) => {
        response.setHeader('allow', allowed);
        sendError(response, {
          status: 405,
          type: 'invalid_request_error',
          message: `${request.method} is not allowed on ${path}: use ${allowed}`,
        });
      };
      if (path === CHAT_PATH) {
        if (request.method !== 'POST') return wrongMethod('POST');
        const caller = await authorize(request, response, peer, CHAT_SCOPE);
        if (caller) await chatCompletions(request, response, caller);
        return;
      }
      if (path === MODELS_PATH || path.startsWith(`${MODELS_PATH}/`)) {
        if (request.method !== 'GET') return wrongMethod('GET');
        const caller = await authorize(request, response, peer, MODELS_SCOPE);
        if (!caller) return;
        if (path === MODELS_PATH)
          return sendJson(response, 200, { object: 'list', data: deps.agents().map(modelEntry) });
        const model = decodeURIComponent(path.slice(MODELS_PATH.length + 1));
        const agentId = model.startsWith(MODEL_PREFIX) ? model.slice(MODEL_PREFIX.length) : undefined;
        if (agentId && deps.agents().includes(agentId)) return sendJson(response, 200, modelEntry(agentId));
        return sendError(response, {
          status: 404,
          type: 'invalid_request_error',
          param: 'model',
          code: 'model_not_found',
          message: `The model '${model}' does not exist: use "hearth/<agentId>"`,
        });
      }
      sendError(response, {
        status: 404,
        type: 'invalid_request_error',
        code: 'unknown_url',
        message: `Unknown request URL: ${request.method} ${path}. This gateway serves ${CHAT_PATH} and ${MODELS_PATH}.`,
      });
    },
  };
}
