import { z } from 'zod';
import { formatIssues } from '../protocol/index.js';
import { formatSessionKey, parseSessionKey, SessionKeyError } from '../sessions/index.js';

/** The model prefix: `hearth/<agentId>` names an agent, not a provider model. */
export const MODEL_PREFIX = 'hearth/';
/** The session a request lands in when it names none (kept apart from the user's main chat). */
export const DEFAULT_API_SESSION = 'openai';

const textPart = z.object({ type: z.literal('text'), text: z.string() }).loose();
const anyPart = z.object({ type: z.string() }).loose();

// Clients send many optional fields (temperature, max_tokens, …); they are accepted and not used:
// the agent's own config picks its model and settings. Only fields whose meaning we cannot honour fail.
const chatCompletionBody = z
  .object({
    model: z.string().min(1),
    messages: z
      .array(
        z
          .object({
            role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
            content: z.union([z.string(), z.array(anyPart), z.null()]).optional(),
          })
          .loose(),
      )
      .min(1),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().nullish() }).loose().nullish(),
    user: z.string().min(1).nullish(),
    n: z.number().int().nullish(),
    tools: z.array(z.unknown()).nullish(),
  })
  .loose();

export interface ChatCompletionRequest {
  model: string;
  agentId: string;
  /** The turn's message: the text of the last message, which must be the user's. */
  message: string;
  stream: boolean;
  includeUsage: boolean;
  sessionKey: string;
}

/** A request we refuse, with the OpenAI error it answers as. */
export class OpenAiRequestError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'OpenAiRequestError';
  }
}

function textOf(content: string | readonly z.infer<typeof anyPart>[] | null | undefined): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .map((part, index) => {
      const text = textPart.safeParse(part);
      if (!text.success) {
        throw new OpenAiRequestError(
          400,
          `messages[-1].content[${index}] is a "${part.type}" part: only text parts are supported`,
          'messages',
        );
      }
      return text.data.text;
    })
    .join('\n');
}

/**
 * The Hearth session a request names: `x-hearth-session` (a label such as `notes`, `main`, or a
 * whole key `agent:<agentId>:…` of the same agent), else the OpenAI `user` field as a label, else
 * `openai`. Labels follow the session-key rules (session-key.ts), and their errors are the 400's text.
 */
export function sessionKeyFor(agentId: string, named: string | undefined): string {
  const name = (named ?? DEFAULT_API_SESSION).trim();
  try {
    if (name.startsWith('agent:')) {
      const parsed = parseSessionKey(name);
      if (parsed.agentId !== agentId) {
        throw new OpenAiRequestError(
          400,
          `session ${JSON.stringify(name)} belongs to agent "${parsed.agentId}", not "${agentId}" (the model)`,
          'x-hearth-session',
        );
      }
      return formatSessionKey(parsed);
    }
    if (name === 'main') return formatSessionKey({ kind: 'main', agentId });
    return formatSessionKey({ kind: 'named', agentId, label: name });
  } catch (error) {
    if (error instanceof SessionKeyError) throw new OpenAiRequestError(400, error.message, 'x-hearth-session');
    throw error;
  }
}

/** Checks a `/v1/chat/completions` body; `knownAgent` says whether an agent id exists. */
export function parseChatCompletionRequest(
  body: unknown,
  options: { sessionHeader?: string; knownAgent(agentId: string): boolean },
): ChatCompletionRequest {
  const parsed = chatCompletionBody.safeParse(body);
  if (!parsed.success) throw new OpenAiRequestError(400, `invalid request body: ${formatIssues(parsed.error.issues)}`);
  const request = parsed.data;
  const agentId = request.model.startsWith(MODEL_PREFIX) ? request.model.slice(MODEL_PREFIX.length) : undefined;
  if (!agentId || !options.knownAgent(agentId)) {
    throw new OpenAiRequestError(
      404,
      `The model '${request.model}' does not exist: use "hearth/<agentId>" (GET /v1/models lists them)`,
      'model',
      'model_not_found',
    );
  }
  if (request.n !== undefined && request.n !== null && request.n !== 1) {
    throw new OpenAiRequestError(400, `n=${request.n} is not supported: a turn has one answer`, 'n');
  }
  if (request.tools && request.tools.length > 0) {
    throw new OpenAiRequestError(
      400,
      'client-side tools are not supported: the agent runs its own tools (under its own approvals)',
      'tools',
    );
  }
  const last = request.messages[request.messages.length - 1]!;
  if (last.role !== 'user') {
    throw new OpenAiRequestError(
      400,
      `the last message must be the user's (it is "${last.role}"): Hearth keeps the conversation, send only the new message`,
      'messages',
    );
  }
  const message = textOf(last.content);
  if (message.trim() === '') throw new OpenAiRequestError(400, 'the last user message is empty', 'messages');
  const sessionName = options.sessionHeader ?? request.user ?? undefined;
  return {
    model: request.model,
    agentId,
    message,
    stream: request.stream === true,
    includeUsage: request.stream_options?.include_usage === true,
    sessionKey: sessionKeyFor(agentId, sessionName),
  };
}
