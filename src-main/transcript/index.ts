// The transcript's message union: what a session's .jsonl holds and what the agent reads and
// writes. A floor below both sessions/ (which stores it) and agent/ (which produces it).

export { withoutReplaced } from './replaced-messages.js';
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
} from './transcript-message.js';
