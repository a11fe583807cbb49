import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SessionRow as WireSessionRow } from '../../src-main/protocol/methods/sessions.js';
import { errorText, type GatewayPort } from './gateway-port.js';

export interface SessionRow {
  key: string;
  agentId: string;
  channel: string;
  title: string;
  updatedAt?: number;
}

export interface SessionsState {
  sessions: SessionRow[];
  search: string;
  loading: boolean;
  error?: string;
  activeKey: string;
  setSearch(search: string): void;
  select(key: string): void;
  refresh(): Promise<void>;
}

export const MAIN_SESSION = 'agent:main:main';

/** agent:<agentId>:<rest>; rest names the channel (main, telegram:…, cron:…). */
export function parseSessionKey(key: string): { agentId: string; channel: string } {
  const parts = key.split(':');
  if (parts[0] === 'agent' && parts.length >= 3) {
    const rest = parts.slice(2);
    return { agentId: parts[1] || 'main', channel: rest[0] === 'main' ? 'direct' : rest[0] || 'direct' };
  }
  return { agentId: 'main', channel: 'direct' };
}

// A row without agentId (a stand-in or older gateway) is read from its key rather than crashing the view.
export function toSessionRow(row: WireSessionRow): SessionRow {
  return {
    key: row.key,
    agentId: row.agentId || parseSessionKey(row.key).agentId,
    channel: row.channel ?? parseSessionKey(row.key).channel,
    title: row.title || row.displayName || row.key,
    updatedAt: row.updatedAt,
  };
}

/** Groups by agent, then channel, newest first; the search filters on title and key. */
export function groupSessions(
  rows: SessionRow[],
  search: string,
): { agentId: string; channel: string; rows: SessionRow[] }[] {
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, { agentId: string; channel: string; rows: SessionRow[] }>();
  for (const row of rows) {
    if (needle && !row.title.toLowerCase().includes(needle) && !row.key.toLowerCase().includes(needle)) continue;
    const id = `${row.agentId}\u0000${row.channel}`;
    let group = groups.get(id);
    if (!group) {
      group = { agentId: row.agentId, channel: row.channel, rows: [] };
      groups.set(id, group);
    }
    group.rows.push(row);
  }
  for (const group of groups.values()) group.rows.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
  return [...groups.values()].sort((a, b) => a.agentId.localeCompare(b.agentId) || a.channel.localeCompare(b.channel));
}

export function createSessionsStore(client: GatewayPort): StoreApi<SessionsState> & { dispose(): void } {
  const store = createStore<SessionsState>((set, get) => ({
    sessions: [],
    search: '',
    loading: false,
    activeKey: MAIN_SESSION,
    setSearch: (search) => set({ search }),
    select: (activeKey) => set({ activeKey }),
    async refresh() {
      set({ loading: true });
      try {
        const result = await client.request('sessions.list', { limit: 500 });
        const sessions = result.sessions.map(toSessionRow);
        if (!sessions.some((s) => s.key === get().activeKey) && get().activeKey === MAIN_SESSION) {
          sessions.unshift({ key: MAIN_SESSION, agentId: 'main', channel: 'direct', title: 'Main' });
        }
        set({ sessions, loading: false, error: undefined });
      } catch (error) {
        set({ loading: false, error: errorText(error) });
      }
    },
  }));
  const a = client.onDidConnect(() => void store.getState().refresh());
  const b = client.on('sessions.changed', () => void store.getState().refresh());
  return Object.assign(store, {
    dispose() {
      a.dispose();
      b.dispose();
    },
  });
}
