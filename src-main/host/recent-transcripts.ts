import type { Clock } from '../base/clock.js';
import { ingestTranscripts, type MemoryScope, type MemoryService } from '../memory/index.js';
import type { SessionStore } from '../sessions/index.js';

export interface RecentTranscriptsDeps {
  sessions: Pick<SessionStore, 'list' | 'read'>;
  memory: MemoryService;
  clock: Pick<Clock, 'now'>;
  /** Who a session speaks for (`session-person.ts`). */
  accountOf(sessionKey: string): string | undefined;
}

const DAY_MS = 24 * 3600_000;

/**
 * Dreaming's fourth way in: what the user said in one agent's conversations of the last day,
 * filtered like auto-capture and with secrets redacted, lands in today's daily file of the scope
 * the conversation belongs to. In per-user memory a session with no known person (a group chat)
 * is skipped rather than guessed into someone's memory.
 */
export async function ingestRecentTranscripts(deps: RecentTranscriptsDeps, agentId: string): Promise<void> {
  const since = deps.clock.now() - DAY_MS;
  const recent = await deps.sessions.list({ agentId, updatedAfter: since, limit: 200 });
  if (recent.sessions.length === 0) return;
  const engine = await deps.memory.engine(agentId);
  for (const row of recent.sessions) {
    let scope: MemoryScope;
    try {
      scope = engine.scopeFor(deps.accountOf(row.key));
    } catch {
      continue;
    }
    const { messages } = await deps.sessions.read(agentId, row.sessionId, { limit: 500 });
    const said = messages.flatMap((m) =>
      m.kind === 'user' && m.ts >= since ? [{ role: 'user' as const, text: m.text }] : [],
    );
    if (said.length > 0) await ingestTranscripts(engine, scope, said, deps.clock.now());
  }
}
