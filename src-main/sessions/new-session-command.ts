import type { Logger } from '../base/logger.js';
import type { AgentMessage } from '../transcript/index.js';
import { parseSessionKey } from './session-key.js';
import type { SessionStore } from './session-store-api.js';

/** What a chat command answers instead of a model turn (`chat.send` result `command`). */
export interface NewSessionCommandReply {
  name: 'new';
  ok: boolean;
  reply: string;
}

export interface NewSessionCommandDeps {
  sessions: Pick<SessionStore, 'get' | 'read' | 'reset'>;
  /**
   * Keeps the ending conversation in memory (`memory/YYYY-MM-DD-<slug>.md`) and answers the
   * file's path; undefined when memory is off. May throw: the reset still happens.
   */
  archive?(input: { agentId: string; sessionKey: string; slug: string; markdown: string }): Promise<string | undefined>;
  log: Logger;
}

/** How many messages of the old session are archived at most. */
const archivedMessageLimit = 2_000;

export function isNewSessionCommand(text: string): boolean {
  return /^\/(new|reset)(\s|$)/i.test(text.trim());
}

/**
 * `/new` (or `/reset`) from any chat surface: the session starts afresh and the old conversation
 * is archived into memory first, so nothing said in it is forgotten. Undefined when the text is
 * not the command.
 */
export async function answerNewSessionCommand(
  text: string,
  sessionKey: string,
  deps: NewSessionCommandDeps,
): Promise<NewSessionCommandReply | undefined> {
  if (!isNewSessionCommand(text)) return undefined;
  const agentId = parseSessionKey(sessionKey).agentId;
  const previous = await deps.sessions.get(agentId, sessionKey);
  let archived: string | undefined;
  if (previous && deps.archive) {
    const { messages } = await deps.sessions.read(agentId, previous.sessionId, { limit: archivedMessageLimit });
    const conversation = conversationMarkdown(previous.title, messages);
    if (conversation) {
      try {
        archived = await deps.archive({ agentId, sessionKey, ...conversation });
      } catch (error) {
        deps.log.warn('could not archive the session into memory', { error: String(error) });
      }
    }
  }
  await deps.sessions.reset(agentId, sessionKey);
  return {
    name: 'new',
    ok: true,
    reply: archived ? `New session. The previous one is kept in ${archived}.` : 'New session.',
  };
}

/** The user's and the assistant's words as markdown, and a file slug from the first question; undefined when empty. */
export function conversationMarkdown(
  title: string | undefined,
  messages: readonly AgentMessage[],
): { slug: string; markdown: string } | undefined {
  const lines = messages.flatMap((m) =>
    m.kind === 'user' ? [`**User:** ${m.text}`] : m.kind === 'assistant' && m.text ? [`**Assistant:** ${m.text}`] : [],
  );
  const firstUser = messages.find((m) => m.kind === 'user');
  if (lines.length === 0 || firstUser?.kind !== 'user') return undefined;
  const slug =
    firstUser.text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'session';
  return { slug, markdown: `# ${title ?? 'Session'}\n\n${lines.join('\n\n')}\n` };
}
