/**
 * The agent's own message model. Provider messages are derived from these only at
 * the LLM boundary; kinds the model never sees as such (compaction summaries,
 * notifications, steering) live here too.
 */
export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolCallMessage
  | ToolResultMessage
  | CompactionSummaryMessage
  | NotificationMessage
  | SteeringMessage;

interface MessageBase {
  id: string;
  /** Epoch ms. */
  ts: number;
  /**
   * Retry, Regenerate and edit-and-resend: this message takes the place of the messages from the
   * one with this id up to itself, which stay on disk but are no longer read (replaced-messages.ts).
   */
  supersedes?: string;
}

export interface Attachment {
  kind: 'image' | 'file';
  mediaType: string;
  name?: string;
  /** base64 data */
  data: string;
}

export interface UserMessage extends MessageBase {
  kind: 'user';
  text: string;
  attachments?: Attachment[];
  /** Hidden context the model sees and the user does not (active recall). */
  hiddenPrefix?: string;
  /**
   * The run this message started (chat.send's idempotencyKey). A client that showed the
   * message before it was stored matches the stored copy by it instead of showing it twice.
   */
  runId?: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export interface AssistantMessage extends MessageBase {
  kind: 'assistant';
  text: string;
  model?: string;
  profileId?: string;
  usage?: Usage;
  stopReason?: string;
}

export interface ToolCallMessage extends MessageBase {
  kind: 'tool_call';
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface ToolResultMessage extends MessageBase {
  kind: 'tool_result';
  toolCallId: string;
  toolName: string;
  output: string;
  isError?: boolean;
  /** Images the tool returned (read of an image, a screenshot), sent to the model after the text. */
  images?: { mediaType: string; data: string }[];
  /** Set when afterToolCall truncation cut the output. */
  truncated?: { originalChars: number; keptChars: number };
}

export interface CompactionSummaryMessage extends MessageBase {
  kind: 'compaction_summary';
  summary: string;
  /** ids of the messages this summary replaces */
  replaces: string[];
  identifiers: string[];
}

export interface NotificationMessage extends MessageBase {
  kind: 'notification';
  text: string;
}

export interface SteeringMessage extends MessageBase {
  kind: 'steering';
  text: string;
}
