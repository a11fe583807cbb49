import { list, num, record, str } from './gateway-port.js';

export type ApprovalState = 'pending' | 'allowed' | 'denied';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant' | 'tool' | 'notice';
  text: string;
  ts?: number;
  status?: 'streaming' | 'done' | 'aborted' | 'error';
  error?: string;
  model?: string;
  runId?: string;
  toolCallId?: string;
  toolName?: string;
  toolInput?: unknown;
  toolOutput?: string;
  approval?: ApprovalState;
  /** The exec approval this tool call waits on. */
  approvalId?: string;
  attachments?: { name: string; mediaType: string }[];
  /** The message has its transcript id (it came from chat.history), so a chat can be forked from it. */
  stored?: boolean;
}

/** Text of an OpenClaw-style content array (`[{type:'text', text}]`) or a plain string. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((part) => {
      const p = record(part);
      return p.type === 'text' ? str(p.text) : '';
    })
    .join('');
}

/**
 * One transcript entry from `chat.history`, in either Hearth's AgentMessage shape (`kind`)
 * or OpenClaw's (`role` + `content`). Kinds the user never reads directly are dropped.
 */
export function toChatMessage(value: unknown, index: number): ChatMessage | undefined {
  const m = record(value);
  const id = str(m.id) || `h${index}`;
  const ts = num(m.ts) ?? num(m.timestamp);
  const stored = str(m.id) !== '' ? { stored: true } : {};
  switch (m.kind ?? m.role) {
    case 'user':
      return {
        id,
        role: 'user',
        text: str(m.text) || contentText(m.content),
        ts,
        ...stored,
        attachments: list(m.attachments).map((a) => ({
          name: str(record(a).name, 'attachment'),
          mediaType: str(record(a).mediaType),
        })),
      };
    case 'assistant':
      return {
        id,
        role: 'assistant',
        text: str(m.text) || contentText(m.content),
        ts,
        ...stored,
        status: 'done',
        model: str(m.model) || undefined,
      };
    case 'tool_call':
      return {
        id,
        role: 'tool',
        text: '',
        ts,
        toolCallId: str(m.toolCallId),
        toolName: str(m.toolName, 'tool'),
        toolInput: m.input,
        status: 'done',
      };
    case 'tool_result':
    case 'tool':
      return {
        id,
        role: 'tool',
        text: '',
        ts,
        toolCallId: str(m.toolCallId),
        toolName: str(m.toolName, 'tool'),
        toolOutput: str(m.output) || contentText(m.content) || JSON.stringify(m.result ?? ''),
        status: 'done',
      };
    case 'notification':
      return { id, role: 'notice', text: str(m.text), ts };
    default:
      return undefined;
  }
}

/** Folds tool results into their call so the transcript shows one collapsible block per tool use. */
export function mergeToolResults(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const byCall = new Map<string, number>();
  for (const message of messages) {
    if (message.role === 'tool' && message.toolCallId) {
      const at = byCall.get(message.toolCallId);
      if (at !== undefined && message.toolOutput !== undefined) {
        out[at] = { ...out[at]!, toolOutput: message.toolOutput };
        continue;
      }
      byCall.set(message.toolCallId, out.length);
    }
    out.push(message);
  }
  return out;
}
