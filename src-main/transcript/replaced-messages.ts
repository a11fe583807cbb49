import type { AgentMessage } from './transcript-message.js';

/**
 * The transcript as it reads after Retry, Regenerate and edit-and-resend. Transcripts are
 * append-only, so a new answer (or an edited message) does not delete the old one: it names, in
 * `supersedes`, the first message it takes the place of, and everything from there up to it is
 * dropped here. The model's context and the history a client shows both read through this, so
 * neither sees the question twice. A `supersedes` naming a message not in `messages` (it is on an
 * older page) drops nothing.
 */
export function withoutReplaced(messages: readonly AgentMessage[]): AgentMessage[] {
  if (!messages.some((m) => m.supersedes !== undefined)) return messages as AgentMessage[];
  const out: AgentMessage[] = [];
  const at = new Map<string, number>();
  for (const message of messages) {
    const from = message.supersedes === undefined ? undefined : at.get(message.supersedes);
    if (from !== undefined) {
      for (const dropped of out.splice(from)) at.delete(dropped.id);
    }
    at.set(message.id, out.length);
    out.push(message);
  }
  return out;
}
