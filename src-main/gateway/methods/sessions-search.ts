import type { Disposable } from '../../base/index.js';
import type { SessionSearchRow } from '../../protocol/methods/sessions.js';
import type { MethodRouter } from '../method-router.js';
import { sessionDisplayName } from './sessions.js';

/** What the method needs of the search index (tools/sessions): it keeps the index, the method only answers. */
export interface SessionsSearchDeps {
  search(
    query: string,
    options: { agentId?: string; limit?: number; includeArchived?: boolean },
  ): Promise<Omit<SessionSearchRow, 'displayName'>[]>;
}

/** `sessions.search`: the chat list's search over what was said, not only titles. */
export function registerSessionsSearchMethod(router: MethodRouter, deps: SessionsSearchDeps): Disposable {
  return router.handle('sessions.search', async (params) => {
    const hits = await deps.search(params.query, {
      agentId: params.agentId,
      limit: params.limit,
      includeArchived: params.includeArchived,
    });
    return {
      results: hits.map((hit) => ({
        key: hit.key,
        agentId: hit.agentId,
        sessionId: hit.sessionId,
        displayName: hit.title ?? sessionDisplayName(hit.key),
        ...(hit.title !== undefined ? { title: hit.title } : {}),
        ...(hit.archived ? { archived: true } : {}),
        updatedAt: hit.updatedAt,
        messageId: hit.messageId,
        role: hit.role,
        ts: hit.ts,
        snippet: hit.snippet,
        matches: hit.matches,
      })),
    };
  });
}
