import type { ModelMessage, ToolCallPart, ToolResultPart } from 'ai';
import type { AgentMessage, UserMessage } from '../messages.js';

/**
 * Internal messages → AI SDK messages, only at the LLM boundary. Assistant text and the tool
 * calls that follow it become one assistant message; consecutive tool results one tool
 * message. Kinds the model never sees as such (summaries, notifications, steering) become
 * clearly labelled user text.
 */
export function toModelMessages(messages: readonly AgentMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  const last = () => out[out.length - 1];

  for (const message of messages) {
    switch (message.kind) {
      case 'user':
        out.push({ role: 'user', content: userContent(message) });
        break;
      case 'assistant':
        if (message.text) out.push({ role: 'assistant', content: [{ type: 'text', text: message.text }] });
        break;
      case 'tool_call': {
        const part: ToolCallPart = {
          type: 'tool-call',
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          input: message.input,
        };
        const previous = last();
        if (previous?.role === 'assistant' && Array.isArray(previous.content)) previous.content.push(part);
        else out.push({ role: 'assistant', content: [part] });
        break;
      }
      case 'tool_result': {
        const part: ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: message.isError
            ? { type: 'error-text', value: message.output }
            : message.images?.length
              ? {
                  type: 'content',
                  value: [
                    { type: 'text', text: message.output },
                    ...message.images.map((image) => ({ type: 'image-data' as const, ...image })),
                  ],
                }
              : { type: 'text', value: message.output },
        };
        const previous = last();
        if (previous?.role === 'tool') previous.content.push(part);
        else out.push({ role: 'tool', content: [part] });
        break;
      }
      case 'compaction_summary':
        out.push({ role: 'user', content: `[Summary of the earlier conversation]\n${message.summary}` });
        break;
      case 'notification':
        out.push({ role: 'user', content: `[Notification] ${message.text}` });
        break;
      case 'steering':
        out.push({ role: 'user', content: `[Steering from the user] ${message.text}` });
        break;
    }
  }
  return dropDanglingToolCalls(out);
}

function userContent(message: UserMessage): Extract<ModelMessage, { role: 'user' }>['content'] {
  const text = message.hiddenPrefix ? `${message.hiddenPrefix}\n\n${message.text}` : message.text;
  if (!message.attachments?.length) return text;
  return [
    { type: 'text', text },
    ...message.attachments.map((a) =>
      a.kind === 'image'
        ? { type: 'image' as const, image: a.data, mediaType: a.mediaType }
        : { type: 'file' as const, data: a.data, mediaType: a.mediaType, filename: a.name },
    ),
  ];
}

/**
 * A turn cut between a tool call and its result (abort, crash) would make every provider
 * reject the history; such calls are dropped so the transcript stays usable.
 */
function dropDanglingToolCalls(messages: ModelMessage[]): ModelMessage[] {
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.role === 'tool')
      for (const part of message.content) if (part.type === 'tool-result') answered.add(part.toolCallId);
  }
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      const content = message.content.filter((part) => part.type !== 'tool-call' || answered.has(part.toolCallId));
      if (content.length === 0) continue;
      out.push({ ...message, content });
    } else out.push(message);
  }
  return out;
}
