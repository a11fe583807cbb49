// The agent's messages are the transcript's (src-main/transcript); re-exported for the agent's own modules.
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
} from '../transcript/index.js';
