export { errorResponse, type FakeErrorResponse } from './error-bodies.js';
export {
  type FakeBaseUrlKind,
  type FakeLlmRequest,
  type FakeLlmServer,
  type FakeLlmServerOptions,
  startFakeLlmServer,
} from './fake-llm-server.js';
export {
  echoReply,
  type FakeErrorKind,
  type FakeMatch,
  type FakeProvider,
  type FakeReply,
  type FakeReplySource,
  type FakeRequestInfo,
  type FakeToolCall,
} from './scenario.js';
