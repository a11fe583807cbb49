export { type Checklist, type ChecklistItem, dueItems, parseChecklist } from './heartbeat-checklist.js';
export {
  type HeartbeatConfig,
  heartbeatConfigSchema,
  heartbeatSettingsOf,
  parseHeartbeatConfig,
} from './heartbeat-config.js';
export {
  type ChangedPathSource,
  createHeartbeatInbox,
  type HeartbeatEvent,
  type HeartbeatEventSource,
  type HeartbeatInbox,
  isWatchedPath,
  watchedFilesSource,
} from './heartbeat-events.js';
export {
  type HeartbeatReason,
  heartbeatPrompt,
  NOTHING_TO_REPORT,
  type PrecheckInput,
  precheck,
} from './heartbeat-precheck.js';
export {
  createHeartbeat,
  describeReason,
  type HeartbeatCounters,
  type HeartbeatDeps,
  type HeartbeatService,
  type HeartbeatSettings,
  type HeartbeatState,
  type HeartbeatTurnOutcome,
} from './heartbeat-service.js';
export { readHeartbeatCounters, writeHeartbeatCounters } from './heartbeat-state-file.js';
