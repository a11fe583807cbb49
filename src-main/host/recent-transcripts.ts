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

/** One agent's conversations of the last day, each with the memory scope it belongs to. */
async function recentSessions(deps: RecentTranscriptsDeps, agentId: string) {
  const since = deps.clock.now() - DAY_MS;
  const recent = await deps.sessions.list({ agentId, updatedAfter: since, limit: 200 });
  if (recent.sessions.length === 0) return { since, rows: [] };
  const engine = await deps.memory.engine(agentId);
  const rows = recent.sessions.flatMap((row) => {
    try {
      return [{ row, scope: engine.scopeFor(deps.accountOf(row.key)) }];
    } catch {
      return [];
    }
  });
  return { since, engine, rows };
}

/**
 * Dreaming's fourth way in, its ingest phase: what the user said in one agent's conversations of
 * the last day, filtered like auto-capture and with secrets redacted, lands in today's daily file
 * of the scope the conversation belongs to — only `scope`'s conversations when one is given (a
 * run dreams one scope). In per-user memory a session with no known person (a group chat) is
 * skipped rather than guessed into someone's memory. `progress` counts the conversations read.
 */
export async function ingestRecentTranscripts(
  deps: RecentTranscriptsDeps,
  agentId: string,
  options: { scope?: MemoryScope; progress?: { start(total: number): void; step(done: number): void } } = {},
): Promise<void> {
  const { since, engine, rows } = await recentSessions(deps, agentId);
  const mine = options.scope ? rows.filter((item) => item.scope.id === options.scope!.id) : rows;
  options.progress?.start(mine.length);
  if (!engine) return;
  for (const [index, { row, scope }] of mine.entries()) {
    const { messages } = await deps.sessions.read(agentId, row.sessionId, { limit: 500 });
    const said = messages.flatMap((m) =>
      m.kind === 'user' && m.ts >= since ? [{ role: 'user' as const, text: m.text }] : [],
    );
    if (said.length > 0) await ingestTranscripts(engine, scope, said, deps.clock.now());
    options.progress?.step(index + 1);
  }
}

/**
 * The scopes with a conversation of the last day: a person who talked today is dreamed tonight
 * even before their `users/<id>/` folder exists (their ingest makes it).
 */
export async function recentTranscriptScopes(deps: RecentTranscriptsDeps, agentId: string): Promise<MemoryScope[]> {
  const { rows } = await recentSessions(deps, agentId);
  const scopes = new Map<string, MemoryScope>();
  for (const { scope } of rows) scopes.set(scope.id, scope);
  return [...scopes.values()];
}
