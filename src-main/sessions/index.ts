export type { LaneLimits, LaneName, LaneRunOptions, LaneStats, Lanes } from './lanes.js';
export { createLanes, defaultLaneLimits, LaneAbortedError, laneNames } from './lanes.js';
export {
  answerNewSessionCommand,
  conversationMarkdown,
  isNewSessionCommand,
  type NewSessionCommandDeps,
  type NewSessionCommandReply,
} from './new-session-command.js';
export type { ResolvedRoute, RouteInput, RouteMatch, RoutingConfigLike } from './resolve-route.js';
export { defaultAgentId, RouteInputError, resolveRoute } from './resolve-route.js';
export type {
  AgentEntry,
  AgentsConfig,
  Binding,
  BindingMatch,
  RoutingConfig,
  RoutingConfigInput,
  SessionConfig,
} from './routing-config.js';
export {
  agentEntrySchema,
  agentsConfigSchema,
  bindingMatchSchema,
  bindingSchema,
  createAgentsConfigSchema,
  routingConfigSchema,
  sessionConfigSchema,
} from './routing-config.js';
export type { DmScope, ParsedSessionKey, PeerAddress, PeerKind, TaskScope } from './session-key.js';
export {
  agentIdOfSessionKey,
  assertAgentId,
  buildPeerSessionKey,
  checkSessionLabel,
  DEFAULT_AGENT_ID,
  dmScopes,
  formatSessionKey,
  isValidAgentId,
  MAIN_SESSION_KEY,
  normalizeSessionKey,
  parseSessionKey,
  peerKinds,
  SessionKeyError,
  taskScopes,
} from './session-key.js';
export { createSessionStore, type SessionStoreDeps } from './session-store.js';
export type {
  CommitOptions,
  DeleteOptions,
  ForkOptions,
  ListOptions,
  ListResult,
  ReadOptions,
  ReadResult,
  SessionChange,
  SessionPatch,
  SessionRecord,
  SessionStore,
  SessionStoreErrorCode,
} from './session-store-api.js';
export { SessionStoreError } from './session-store-api.js';
