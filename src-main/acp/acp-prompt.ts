import * as acp from '@agentclientprotocol/sdk';
import { runChatTurn, type TurnChannel } from '../openai-api/index.js';
import type { AgentEvent, ExecApprovalResolvedEvent, ExecApprovalView } from '../protocol/index.js';
import { decisionOf, permissionOptionsFor } from './permission-options.js';
import { toolCallUpdateOf } from './tool-call-report.js';

/** A tool's output kept for its final report: the tail, as a terminal would show it. */
const OUTPUT_TAIL_CHARS = 8000;

export interface AcpPromptInput {
  /** The ACP session id, which is the Hearth session key. */
  sessionId: string;
  text: string;
  runId: string;
  /** Fires on `session/cancel` (or when the editor goes away): the run is aborted. */
  signal: AbortSignal;
}

/** The editor side of the connection: what the agent may send it (the SDK's AgentContext fits). */
export interface AcpClientPort {
  notify(method: 'session/update', params: acp.SessionNotification): Promise<void>;
  request(
    method: 'session/request_permission',
    params: acp.RequestPermissionRequest,
    options?: acp.SendRequestOptions,
  ): Promise<acp.RequestPermissionResponse>;
}

/**
 * One `session/prompt`: a turn through `chat.send` (the chat path every client takes: lanes,
 * approvals, memory), reported to the editor as it goes. Answer pieces become
 * `agent_message_chunk`s, tool calls `tool_call` / `tool_call_update`, and an approval the run
 * waits on becomes `session/request_permission`, whose answer resolves it. Every update is sent,
 * in order, before the prompt's response.
 */
export async function runAcpPrompt(
  channel: TurnChannel,
  client: AcpClientPort,
  input: AcpPromptInput,
): Promise<acp.PromptResponse> {
  const { sessionId, signal } = input;
  const sessionKey = sessionId;
  let updates = Promise.resolve();
  const send = (update: acp.SessionUpdate) => {
    // In order, and never failing the turn: an editor that went away just misses them.
    updates = updates.then(() => client.notify('session/update', { sessionId, update })).catch(() => {});
  };
  const open = new Map<string, { output: string }>();
  let lastOpen: string | undefined;
  const asking = new Map<string, AbortController>();

  const ask = async (view: ExecApprovalView) => {
    const cancel = new AbortController();
    asking.set(view.id, cancel);
    const stop = () => cancel.abort();
    signal.addEventListener('abort', stop, { once: true });
    const options = permissionOptionsFor(view.allowedDecisions);
    try {
      // The tool call it belongs to is reported first, so the editor can show the ask on its card.
      await updates;
      const response = await client.request(
        'session/request_permission',
        {
          sessionId,
          toolCall: {
            toolCallId: lastOpen ?? `approval-${view.id}`,
            title: view.command,
            kind: view.host?.startsWith('mcp:') ? 'other' : 'execute',
            status: 'pending',
            rawInput: { command: view.command, cwd: view.cwd },
          },
          options,
        },
        { cancellationSignal: cancel.signal },
      );
      // Answered elsewhere meanwhile (Control UI, CLI, a channel), or the prompt was cancelled.
      if (cancel.signal.aborted) return;
      const decision = decisionOf(response.outcome, options);
      await channel.call('exec.approval.resolve', { id: view.id, decision }, new AbortController().signal);
    } catch {
      // A refused or failed ask is no yes: the request stays with Hearth's other surfaces and its expiry.
    } finally {
      signal.removeEventListener('abort', stop);
      asking.delete(view.id);
    }
  };

  const watch = channel.subscribe((event, payload) => {
    if (event === 'agent') {
      const part = payload as AgentEvent;
      if (part.runId !== input.runId) return;
      if (part.stream === 'tool') {
        const update = toolCallUpdateOf(part.data);
        if (part.data.phase === 'call') {
          open.set(part.data.toolCallId, { output: '' });
          lastOpen = part.data.toolCallId;
        } else {
          const output = open.get(part.data.toolCallId)?.output ?? '';
          open.delete(part.data.toolCallId);
          if (lastOpen === part.data.toolCallId) lastOpen = [...open.keys()].at(-1);
          if (output !== '') {
            Object.assign(update, { content: [{ type: 'content', content: { type: 'text', text: output } }] });
          }
        }
        send(update);
      } else if (part.stream === 'tool_output' && lastOpen) {
        const call = open.get(lastOpen);
        if (call) call.output = (call.output + part.data.text).slice(-OUTPUT_TAIL_CHARS);
      }
      return;
    }
    if (event === 'exec.approval.requested') {
      const view = payload as ExecApprovalView;
      if (view.sessionKey === sessionKey) void ask(view);
      return;
    }
    if (event === 'exec.approval.resolved') {
      asking.get((payload as ExecApprovalResolvedEvent).id)?.abort();
    }
  });

  let streamed = false;
  try {
    const outcome = await runChatTurn(channel, {
      sessionKey,
      message: input.text,
      runId: input.runId,
      signal,
      onDelta: (delta) => {
        streamed = true;
        send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta } });
      },
    });
    if (!outcome.ok) {
      if (signal.aborted) return { stopReason: 'cancelled' };
      throw new acp.RequestError(-32603, outcome.error.message, { code: outcome.error.code });
    }
    // A chat command (`/new`, `/approve …`) is answered without a turn, so nothing streamed.
    if (!streamed && outcome.text !== '') {
      send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: outcome.text } });
    }
    if (signal.aborted || outcome.stopReason === 'aborted') return { stopReason: 'cancelled' };
    if (outcome.stopReason === 'length' || outcome.stopReason === 'max_tokens') return { stopReason: 'max_tokens' };
    return { stopReason: 'end_turn' };
  } finally {
    watch.dispose();
    for (const cancel of asking.values()) cancel.abort();
    // A call the run left unfinished (it was cancelled mid-tool) must not spin forever in the editor.
    for (const toolCallId of open.keys()) send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    await updates;
  }
}
