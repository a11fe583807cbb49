import type { z } from 'zod';
import type { ChannelTarget } from './channels.js';

// Tools a channel gives the model (react, pin, list members), as the issue's `agentTools`
// adapter. Off unless a person enables them (`channels.<id>.agentTools`), and only in a run whose
// session is on that channel. A tool never names a chat: the host hands it the conversation the
// run belongs to, so the model cannot act on another chat (docs/CHANNELS.md).

/** The conversation a tool call acts on: the chat the run's session is on. Chosen by the host. */
export interface ChannelConversation {
  target: ChannelTarget;
  /** The last message the person sent in it (the id the plugin gave it in `receive`). */
  lastMessageId?: string;
  /** Who sent that message. */
  senderId: string;
}

/** One tool of a channel. Its model-facing name is `<channel id>_<name>` (`telegram_react`). */
export interface ChannelAgentTool<Input = unknown> {
  /** Short, `[a-z][a-z0-9_]*`, unique within the channel: `react`, `pin`, `members`. */
  name: string;
  /** What it does, for the model: the first sentence is what `tools_search` shows. */
  description: string;
  /** Its input; it has no chat id, by design (the host supplies the conversation). */
  inputSchema: z.ZodType<Input>;
  /**
   * Runs it on `conversation` and answers a short text for the model. Throw an Error whose
   * message says what went wrong (a refused message id, the platform's refusal); never a token.
   */
  execute(input: Input, conversation: ChannelConversation, signal: AbortSignal): Promise<string>;
}

/** The plugin's declaration: which tools a person can enable (the UI lists them, config is checked). */
export interface ChannelAgentToolsAdapter {
  tools: readonly { name: string; description: string }[];
}

/** Identity function that type checks one tool's input against its schema. */
export function defineChannelAgentTool<Input>(tool: ChannelAgentTool<Input>): ChannelAgentTool<Input> {
  return tool;
}

/**
 * The platform id of the message a tool acts on, in `chat` (the conversation's own chat on the
 * platform): `given` (an id in this chat, or `<chat>:<id>` as `receive` names messages), else the
 * person's last message. Another chat's message is refused with an error saying so.
 */
export function messageInConversation(conversation: ChannelConversation, chat: string, given?: string): string {
  const id = given?.trim() || conversation.lastMessageId;
  if (!id) throw new Error('there is no message from the person in this conversation yet');
  const at = id.lastIndexOf(':');
  if (at < 0) return id;
  if (id.slice(0, at) !== chat)
    throw new Error(
      `message ${id} is not in this conversation: these tools act only on the chat the person is writing from`,
    );
  return id.slice(at + 1);
}

/** The chat a conversation's messages are in: the prefix of the last message's id, else `fallback` (its peer). */
export function chatOfConversation(conversation: ChannelConversation, fallback: string): string {
  const id = conversation.lastMessageId;
  const at = id ? id.lastIndexOf(':') : -1;
  return id && at > 0 ? id.slice(0, at) : fallback;
}
