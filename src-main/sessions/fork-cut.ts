import type { AgentMessage } from '../transcript/index.js';
import { SessionStoreError } from './session-store-api.js';

/**
 * The messages a fork "from a message" keeps: everything up to and including that message, and,
 * when the cut would leave a tool call without its result, on to the result, so the forked
 * history is one a model accepts (every tool call answered).
 */
export function forkCut(messages: readonly AgentMessage[], messageId: string): AgentMessage[] {
  const at = messages.findIndex((message) => message.id === messageId);
  if (at < 0) throw new SessionStoreError('not_found', `no message ${JSON.stringify(messageId)} in this session`);
  const open = new Set<string>();
  let end = at;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (i > end && open.size === 0) break;
    if (message.kind === 'tool_call') open.add(message.toolCallId);
    else if (message.kind === 'tool_result') open.delete(message.toolCallId);
    end = Math.max(end, i);
  }
  return messages.slice(0, end + 1);
}
