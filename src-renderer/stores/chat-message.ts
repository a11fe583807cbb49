import { type ApprovalMarker, readApprovalMarker } from '../../src-main/protocol/approval-marker.js';
import { type HistoryMessage, readHistoryMessage } from '../../src-main/protocol/client/read-history-message.js';

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
  /** How the approval was answered and by whom (live, or from the result's marker after a reload). */
  decision?: ApprovalMarker;
  attachments?: { name: string; mediaType: string }[];
  /** The gateway refused the chat.send itself: the message never reached the transcript, so Retry sends it anew. */
  sendRefused?: boolean;
  /** The message has its transcript id (it came from chat.history), so a chat can be forked from it. */
  stored?: boolean;
  /** The run waits before trying the model again (a cooling credential, a busy provider): why and how long. */
  waiting?: { reason: string; waitMs: number };
}

/** Text of an OpenClaw-style content array (`[{type:'text', text}]`), as chat events carry it. */
export function contentText(content: readonly { type: string; text?: string }[]): string {
  return content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

/**
 * One transcript entry from `chat.history` (read by protocol's `readHistoryMessage`, which takes
 * Hearth's shapes old and new and OpenClaw's). Kinds the user never reads directly are dropped.
 */
export function toChatMessage(m: HistoryMessage, index: number): ChatMessage | undefined {
  const id = m.id ?? `h${index}`;
  const ts = m.ts;
  const stored = m.id !== undefined ? { stored: true } : {};
  switch (m.kind) {
    case 'user':
      return { id, role: 'user', text: m.text, ts, ...stored, attachments: m.attachments };
    case 'assistant':
      return { id, role: 'assistant', text: m.text, ts, ...stored, status: 'done', model: m.model || undefined };
    case 'tool_call':
      return {
        id,
        role: 'tool',
        text: '',
        ts,
        toolCallId: m.toolCallId ?? '',
        toolName: m.toolName ?? 'tool',
        toolInput: m.input,
        status: 'done',
      };
    case 'tool_result':
    case 'tool': {
      // The approval decision is the result's first line (protocol/approval-marker.ts).
      const { marker, output } = readApprovalMarker(m.output);
      return {
        id,
        role: 'tool',
        text: '',
        ts,
        toolCallId: m.toolCallId ?? '',
        toolName: m.toolName ?? 'tool',
        toolOutput: output,
        ...(marker ? { decision: marker, approval: marker.decision === 'deny' ? 'denied' : 'allowed' } : {}),
        status: 'done',
      };
    }
    case 'notification':
      return { id, role: 'notice', text: m.text, ts };
    default:
      return undefined;
  }
}

/** The history page's messages, tool results folded into their calls. */
export function historyMessages(messages: readonly unknown[]): ChatMessage[] {
  return mergeToolResults(
    messages.flatMap((value, i) => {
      const message = readHistoryMessage(value);
      return (message && toChatMessage(message, i)) ?? [];
    }),
  );
}

/** Folds tool results into their call so the transcript shows one collapsible block per tool use. */
export function mergeToolResults(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const byCall = new Map<string, number>();
  for (const message of messages) {
    if (message.role === 'tool' && message.toolCallId) {
      const at = byCall.get(message.toolCallId);
      if (at !== undefined && message.toolOutput !== undefined) {
        out[at] = {
          ...out[at]!,
          toolOutput: message.toolOutput,
          ...(message.decision ? { decision: message.decision, approval: message.approval } : {}),
        };
        continue;
      }
      byCall.set(message.toolCallId, out.length);
    }
    out.push(message);
  }
  return out;
}
