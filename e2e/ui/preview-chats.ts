import type { SessionRow, SessionsListResult } from '../../src-main/protocol/methods/sessions.js';
import * as data from './preview-data.js';

/**
 * The preview gateway's chat list: sessions.list and the chat methods (create, rename, pin,
 * archive, delete, fork) over one in-memory list, answering in the typed wire's shapes, so the
 * chat list's flows can be clicked through in the static preview.
 */
export function createPreviewChats() {
  let rows: SessionRow[] = data.sessions().sessions;
  let next = 1;
  const find = (params: Record<string, unknown>) => {
    const key = String(params.key ?? params.sessionKey);
    const row = rows.find((r) => r.key === key);
    if (!row) throw Object.assign(new Error(`no session ${key}`), { code: 'NOT_FOUND' });
    return row;
  };
  const changed = (row: SessionRow) => ({ ok: true, key: row.key, session: row });
  const patch = (params: Record<string, unknown>, fields: Partial<SessionRow>) => {
    const row = { ...find(params), ...fields };
    rows = rows.map((r) => (r.key === row.key ? row : r));
    return changed(row);
  };
  const fresh = (agentId: string, title?: string): SessionRow => {
    const label = `chat-${String(next++).padStart(8, '0')}`;
    const now = data.previewNow();
    return {
      key: `agent:${agentId}:${label}`,
      kind: 'direct',
      agentId,
      sessionId: `preview-${label}`,
      displayName: title ?? label,
      label,
      createdAt: now,
      updatedAt: now,
      ...(title ? { title } : {}),
    };
  };

  return {
    answer(method: string, params: Record<string, unknown>, announce: (key: string) => void): unknown {
      switch (method) {
        case 'sessions.list': {
          const archived = params.archived ?? 'exclude';
          const shown = rows.filter((r) => archived === 'all' || (archived === 'only' ? r.archived : !r.archived));
          const result: SessionsListResult = {
            count: shown.length,
            totalCount: shown.length,
            nextOffset: null,
            hasMore: false,
            sessions: shown,
          };
          return result;
        }
        case 'sessions.create': {
          const row = fresh(String(params.agentId ?? 'main'));
          rows = [row, ...rows];
          announce(row.key);
          return changed(row);
        }
        case 'sessions.rename': {
          const title = typeof params.title === 'string' ? params.title.trim() : undefined;
          const base = find(params);
          const result = patch(params, {
            ...(title ? { title } : { title: undefined }),
            displayName: title ?? base.label ?? base.key,
          });
          announce(base.key);
          return result;
        }
        case 'sessions.pin':
        case 'sessions.archive': {
          const field = method === 'sessions.pin' ? 'pinned' : 'archived';
          const result = patch(params, { [field]: params[field] === true ? true : undefined });
          announce(result.key);
          return result;
        }
        case 'sessions.delete': {
          const row = find(params);
          rows = rows.filter((r) => r.key !== row.key);
          announce(row.key);
          return { ok: true, key: row.key, deleted: true, transcriptDeleted: params.deleteTranscript === true };
        }
        case 'sessions.fork': {
          const source = find(params);
          const row = {
            ...fresh(source.agentId, source.title),
            forkedFrom: { key: source.key, sessionId: source.sessionId, messageId: String(params.messageId) },
          };
          rows = [row, ...rows];
          announce(row.key);
          return changed(row);
        }
        default:
          throw new Error(`not a chat method: ${method}`);
      }
    },
  };
}
