import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import type { TurnChannel } from '../openai-api/index.js';
import { parseSessionKey, SessionKeyError } from '../sessions/index.js';
import { runAcpPrompt } from './acp-prompt.js';
import { PromptContentError, promptText } from './prompt-text.js';

export interface HearthAcpAgentOptions {
  version: string;
  /** The agent whose sessions `session/new` makes (default `main`). */
  agentId?: string;
  newId?: () => string;
}

interface AcpSession {
  /** The running prompt's abort, if one runs (ACP allows one prompt per session at a time). */
  running?: AbortController;
}

/** A history message as chat.history returns it. */
interface HistoryMessage {
  role: string;
  content: { type: string; text?: string }[];
}

/**
 * Hearth inside editors (issue #15): an ACP agent whose sessions are Hearth sessions
 * (`agent:<agentId>:acp-<id>`; the ACP session id is the session key itself, so
 * `session/load` can reopen any conversation) and whose prompts run through the gateway's chat
 * path over `channel` (runAcpPrompt). The editor's `cwd` and MCP servers are not used: the
 * agent works in its own workspace with its own tools, as in every other Hearth client.
 */
export function createHearthAcpAgent(channel: TurnChannel, options: HearthAcpAgentOptions): acp.AgentApp {
  const newId = options.newId ?? randomUUID;
  const agentId = options.agentId ?? 'main';
  const sessions = new Map<string, AcpSession>();
  const none = () => new AbortController().signal;

  const known = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(sessionId);
    return session;
  };

  return acp
    .agent({ name: 'hearth' })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
      },
      agentInfo: { name: 'hearth', title: 'Hearth', version: options.version },
      authMethods: [],
    }))
    .onRequest(acp.methods.agent.session.new, () => {
      const sessionId = `agent:${agentId}:acp-${newId().toLowerCase()}`;
      sessions.set(sessionId, {});
      return { sessionId };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      const sessionId = params.sessionId;
      try {
        parseSessionKey(sessionId);
      } catch (error) {
        if (error instanceof SessionKeyError) throw acp.RequestError.invalidParams(undefined, error.message);
        throw error;
      }
      const page = await channel.call('chat.history', { sessionKey: sessionId, limit: 200 }, none());
      if (!page.ok) {
        if (page.error.code === 'NOT_FOUND') throw acp.RequestError.sessionNotFound(sessionId);
        throw acp.RequestError.internalError(undefined, page.error.message);
      }
      // The conversation so far is replayed as updates before the response, as ACP asks.
      for (const message of (page.payload as { messages: HistoryMessage[] }).messages) {
        const text = message.content.map((part) => part.text ?? '').join('');
        if (text === '' || (message.role !== 'user' && message.role !== 'assistant')) continue;
        await client.notify('session/update', {
          sessionId,
          update: {
            sessionUpdate: message.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk',
            content: { type: 'text', text },
          },
        });
      }
      sessions.set(sessionId, sessions.get(sessionId) ?? {});
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
      const session = known(params.sessionId);
      if (session.running) {
        throw acp.RequestError.invalidRequest(undefined, 'a prompt is already running in this session');
      }
      let text: string;
      try {
        text = promptText(params.prompt);
      } catch (error) {
        if (error instanceof PromptContentError) throw acp.RequestError.invalidParams(undefined, error.message);
        throw error;
      }
      const running = new AbortController();
      session.running = running;
      try {
        return await runAcpPrompt(channel, client, {
          sessionId: params.sessionId,
          text,
          runId: `acp-${newId()}`,
          // session/cancel, a $/cancel_request for the prompt, or the editor closing the connection.
          signal: AbortSignal.any([running.signal, signal]),
        });
      } finally {
        session.running = undefined;
      }
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.running?.abort();
    });
}
