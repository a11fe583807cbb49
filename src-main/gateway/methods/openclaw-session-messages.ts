import type { Disposable } from '../../base/index.js';
import type { SessionStore } from '../../sessions/index.js';
import type { EventBus } from '../event-bus.js';
import { transcriptLength } from './openclaw-chat-delta.js';
import { openClawMessage } from './openclaw-session-view.js';

/** Sessions whose seen-length is remembered; the least recently changed are forgotten first. */
const MAX_TRACKED = 500;

/**
 * Announces each message that lands in a transcript as `session.message` (OpenClaw's event).
 * The store reports a change once per turn (when the transcript is synced), so the messages of
 * a turn arrive together, in order. A session first seen here announces only what was written
 * after this started, never its whole past.
 */
export function publishSessionMessages(deps: { store: SessionStore; bus: EventBus; now(): number }): Disposable {
  const startedAt = deps.now();
  const seen = new Map<string, number>();
  let queue: Promise<void> = Promise.resolve();
  const subscription = deps.store.onDidChange((change) => {
    if (!change.sessionId || (change.reason !== 'updated' && change.reason !== 'created')) return;
    const { agentId, key, sessionId } = change;
    // One at a time: two quick turns must not announce the same message twice.
    queue = queue
      .then(async () => {
        const total = await transcriptLength(deps.store, agentId, sessionId);
        const known = seen.get(sessionId);
        seen.delete(sessionId);
        seen.set(sessionId, total);
        if (seen.size > MAX_TRACKED) seen.delete(seen.keys().next().value as string);
        const from = known ?? 0;
        if (total <= from) return;
        const { messages } = await deps.store.read(agentId, sessionId, { limit: total - from });
        messages.forEach((message, index) => {
          if (known === undefined && message.ts < startedAt) return;
          deps.bus.publish('session.message', {
            sessionKey: key,
            agentId,
            sessionId,
            message: openClawMessage(message),
            messageId: message.id,
            messageSeq: from + index + 1,
          });
        });
      })
      .catch(() => {
        // A transcript deleted between the change and the read has nothing left to announce.
      });
  });
  return subscription;
}
