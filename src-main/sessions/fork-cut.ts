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

/**
 * The last message of a run: the run's user message (it carries the run id) and everything after it
 * up to the next user message. A client that has only seen a reply stream (no stored ids yet) forks
 * "after this answer" by run id.
 */
export function lastMessageOfRun(messages: readonly AgentMessage[], runId: string): string {
  const start = messages.findIndex((message) => message.kind === 'user' && message.runId === runId);
  if (start < 0) throw new SessionStoreError('not_found', `no run ${JSON.stringify(runId)} in this session`);
  let end = start;
  while (end + 1 < messages.length && messages[end + 1]!.kind !== 'user') end++;
  return messages[end]!.id;
}
