export {
  DEFAULT_API_SESSION,
  MODEL_PREFIX,
  OpenAiRequestError,
  parseChatCompletionRequest,
  sessionKeyFor,
} from './chat-request.js';
export { BodyError, type HttpCallerResult, httpCallerFor, readJsonBody } from './http-caller.js';
export { type OpenAiApiConfig, openAiApiConfigSchema } from './openai-api-config.js';
export { createOpenAiApiRoute, type OpenAiApiDeps, SESSION_HEADER } from './openai-http.js';
export {
  type ApiGateway,
  channelFor,
  runChatTurn,
  type TurnChannel,
  type TurnInput,
  type TurnOutcome,
} from './run-turn.js';
