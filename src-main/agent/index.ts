export { type AgentLoopHooks, type AgentLoopInput, runAgentLoop } from './loop/agent-loop.js';
export {
  type AgentLoopEvent,
  type AgentLoopResult,
  type AgentLoopStatus,
  EmptyResponseError,
} from './loop/loop-events.js';
export { toModelMessages } from './loop/to-model-messages.js';
export type { BeforeToolCallDecision, ToolCallHooks } from './loop/tool-calls.js';
export type {
  AgentMessage,
  AssistantMessage,
  Attachment,
  CompactionSummaryMessage,
  NotificationMessage,
  SteeringMessage,
  ToolCallMessage,
  ToolResultMessage,
  Usage,
  UserMessage,
} from './messages.js';
export { runModel } from './runner/run-model.js';
export { runTurn } from './runner/run-turn.js';
export type {
  RunnerContextHooks,
  RunnerDeps,
  RunnerEvent,
  TurnOutcome,
  TurnRequest,
  TurnStatus,
} from './runner/runner-types.js';
export type { EngineTurnInput, TurnEngine } from './runner/turn-engine.js';
export {
  type AgentPause,
  createAgentPause,
  PAUSED_MESSAGE,
  type PauseSaving,
  type PauseState,
} from './runtime/agent-pause.js';
export { agentPausePath, pauseSavingAt, readSavedPause } from './runtime/agent-pause-file.js';
export {
  type AgentRuntime,
  type AgentRuntimeDeps,
  createAgentRuntime,
  type RunKind,
  type StartTurnInput,
  type TurnScope,
} from './runtime/agent-runtime.js';
export { listModelRows, type ModelRowView } from './runtime/list-models.js';
export { RunEventPublisher, type RuntimeEventSink } from './runtime/run-events.js';
export { RunConflictError, type RunRecord, RunRegistry, type RunStatus } from './runtime/run-registry.js';
export {
  createRuntimeServices,
  type RuntimeServices,
  type RuntimeServicesDeps,
} from './runtime/runtime-services.js';
