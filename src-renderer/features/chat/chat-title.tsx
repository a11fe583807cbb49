import { useDomain, useT } from '../../app/stores-context.js';
import { chatTitle } from '../../stores/chat-title.js';

/** A chat's readable name, live: it follows the chat list (a rename or a first message retitles it). */
export function useChatTitle(sessionKey: string): string {
  const t = useT();
  const row = useDomain('sessions', (s) => s.sessions.find((entry) => entry.key === sessionKey));
  return chatTitle(sessionKey, row, t);
}

/**
 * A chat's name for any view that mentions a chat (usage, approvals, permissions): the readable
 * title, with the key kept in the tooltip for whoever needs to match it against logs.
 */
export function ChatTitle({ sessionKey }: { sessionKey: string }) {
  const title = useChatTitle(sessionKey);
  return (
    <span className="chat-title" title={sessionKey} data-session-key={sessionKey}>
      {title}
    </span>
  );
}
