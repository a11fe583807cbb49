export { type AgentsTalk, createAgentsTalk, type SendInput, type SendResult } from './agents-talk.js';
export {
  type AgentsTalkSettings,
  agentsTalkSettings,
  agentToAgentConfigSchema,
  canMessageConfigSchema,
  DEFAULT_MAX_TURNS,
} from './agents-talk-config.js';
export { type RunWait, runAndWait, type TurnRunner, waitForRun } from './turn-runner.js';
