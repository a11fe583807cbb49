import { HearthError } from '../../base/errors.js';
import type { AgentMessage, UserMessage } from '../messages.js';

export interface TurnMessages {
  /** What the model reads: the transcript so far, ending with the message it answers. */
  history: AgentMessage[];
  /** The message the turn answers. */
  user: UserMessage;
  /** The message is new and goes into the transcript before the model is called. */
  append: boolean;
  /** Set when the answer takes the place of an older one: the first message it replaces. */
  answerReplaces?: string;
}

/**
 * The message a turn answers and the history it is read with. A plain turn adds a new message;
 * Retry / Regenerate (`last-answer`) answer the person's last message again and edit-and-resend
 * (`last-message`) puts a new one in its place, so neither stores the question twice.
 */
export function turnMessages(input: {
  previous: readonly AgentMessage[];
  replace?: 'last-answer' | 'last-message';
  fresh(): UserMessage;
}): TurnMessages {
  const { previous, replace } = input;
  if (!replace) {
    const user = input.fresh();
    return { history: [...previous, user], user, append: true };
  }
  const at = previous.findLastIndex((m) => m.kind === 'user');
  const last = previous[at];
  if (last?.kind !== 'user') {
    throw new HearthError(
      'bad_request',
      `nothing to ${replace === 'last-answer' ? 'retry' : 'edit'}: the chat has no message of yours yet`,
    );
  }
  if (replace === 'last-answer') {
    return { history: previous.slice(0, at + 1), user: last, append: false, answerReplaces: previous[at + 1]?.id };
  }
  const user = { ...input.fresh(), supersedes: last.id };
  return { history: [...previous.slice(0, at), user], user, append: true };
}
