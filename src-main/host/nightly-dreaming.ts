import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../base/logger.js';
import { agentScope, type MemoryConfig, type MemoryScope, type MemoryService, userScope } from '../memory/index.js';

/**
 * The scopes a nightly run dreams for one agent: its own memory (per-agent), or, with per-user
 * memory, each person who has a folder `users/<id>/` in the agent's workspace — one run per
 * person, never the shared scope mixed with anyone's (nothing recalls from the shared scope then).
 */
export async function dreamingScopes(
  workspaceDir: string,
  agentId: string,
  settings: Pick<MemoryConfig, 'scope'>,
  log: Logger,
): Promise<MemoryScope[]> {
  if (settings.scope === 'per-agent') return [agentScope(agentId)];
  const entries = await readdir(join(workspaceDir, 'users'), { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const scopes: MemoryScope[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    try {
      scopes.push(userScope(entry.name));
    } catch {
      log.warn('a users/ folder that is not a user id is not dreamed', { agentId, folder: entry.name });
    }
  }
  return scopes;
}

export interface NightlyDreamingDeps {
  memory: MemoryService;
  /** The configured agents at the time of the run (`agent-roster.ts`). */
  agentIds(): readonly string[];
  /**
   * The scopes with a conversation of the last day (recent-transcripts.ts): with per-user memory,
   * a person who talked today is dreamed even before their folder exists. Each scope's run files
   * its own conversations first, in its ingest phase (MemoryServiceDeps.ingest).
   */
  recentScopes?(agentId: string): Promise<MemoryScope[]>;
  /** After each scope's run (`dreams.changed`). */
  dreamed(agentId: string, scope: MemoryScope): void;
  log: Logger;
}

export interface NightlyRun {
  dreamed: { agentId: string; scopeId: string; promoted: number }[];
  failed: { agentId: string; scopeId?: string; error: string }[];
}

/**
 * One nightly Dreaming run (with apply) for every configured agent and scope, in turn. A failure
 * (a lock still held, a broken index) is logged and the others still dream.
 */
export async function dreamEveryAgent(deps: NightlyDreamingDeps): Promise<NightlyRun> {
  const run: NightlyRun = { dreamed: [], failed: [] };
  const fail = (agentId: string, scopeId: string | undefined, error: unknown) => {
    deps.log.error('scheduled Dreaming failed', { agentId, scope: scopeId, error: String(error) });
    run.failed.push({ agentId, scopeId, error: String(error) });
  };
  for (const agentId of deps.agentIds()) {
    let scopes: MemoryScope[];
    try {
      const engine = await deps.memory.engine(agentId);
      scopes = await dreamingScopes(engine.workspaceDir, agentId, deps.memory.config, deps.log);
      // Dreaming still runs on the folders there are when the transcripts cannot be listed.
      const recent = await (deps.recentScopes?.(agentId) ?? Promise.resolve([])).catch((error: unknown) => {
        deps.log.warn('could not list recent conversations before Dreaming', { agentId, error: String(error) });
        return [];
      });
      // Per-user: a person's own scope only, never the shared one.
      if (deps.memory.config.scope === 'per-user')
        for (const scope of recent)
          if (scope.root && !scopes.some((known) => known.id === scope.id)) scopes.push(scope);
    } catch (error) {
      fail(agentId, undefined, error);
      continue;
    }
    for (const scope of scopes) {
      try {
        const summary = await deps.memory.dream(agentId, scope, true, { origin: 'schedule' });
        run.dreamed.push({ agentId, scopeId: scope.id, promoted: summary.promoted.length });
        deps.dreamed(agentId, scope);
      } catch (error) {
        fail(agentId, scope.id, error);
      }
    }
  }
  return run;
}
