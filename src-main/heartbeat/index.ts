export { type Checklist, type ChecklistItem, dueItems, parseChecklist } from './heartbeat-checklist.js';
export {
  type HeartbeatReason,
  heartbeatPrompt,
  NOTHING_TO_REPORT,
  type PrecheckInput,
  precheck,
} from './heartbeat-precheck.js';
export {
  createHeartbeat,
  type HeartbeatDeps,
  type HeartbeatService,
  type HeartbeatSettings,
  type HeartbeatState,
} from './heartbeat-service.js';
