import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SessionRow as WireSessionRow } from '../../src-main/protocol/methods/sessions.js';
import { errorText, type GatewayPort } from './gateway-port.js';

export interface SessionRow {
  key: string;
  agentId: string;
  channel: string;
  /** What the list shows: the title, else a readable name from the key (never `agent:main:main`). */
  title: string;
  /** The title a person gave (or the first message gave); absent when the name comes from the key. */
  customTitle?: string;
  /** The gateway's display name when it is more than the key (a channel peer's name). */
  displayName?: string;
  updatedAt?: number;
  pinned?: boolean;
  archived?: boolean;
}

export interface SessionsState {
  sessions: SessionRow[];
  search: string;
  /** Chats whose messages match the search (`sessions.search`): key → snippet of the best message. */
  matches: Record<string, string>;
  loading: boolean;
  error?: string;
  activeKey: string;
  /** Archived chats are listed only while this is on. */
  showArchived: boolean;
  setSearch(search: string): void;
  select(key: string): void;
  setShowArchived(show: boolean): void;
  refresh(): Promise<void>;
  /** A fresh named chat of the agent (default: the active chat's agent), selected at once. */
  create(agentId?: string): Promise<void>;
  /** An empty title clears it (the name then comes from the key). */
  rename(key: string, title: string): Promise<void>;
  setPinned(key: string, pinned: boolean): Promise<void>;
  setArchived(key: string, archived: boolean): Promise<void>;
  /** Deletes the chat and its transcript for good (the view asks first). */
  remove(key: string): Promise<void>;
  /** A new chat with the transcript up to a stored message, or through a run's reply; selected at once. */
  fork(key: string, from: { messageId: string } | { runId: string }): Promise<void>;
}

export const MAIN_SESSION = 'agent:main:main';
const peerKinds = ['direct', 'group', 'channel', 'dm'];

/** agent:<agentId>:<rest>; rest names the channel (telegram:…, cron:…); main and named chats are direct. */
export function parseSessionKey(key: string): { agentId: string; channel: string } {
  const parts = key.split(':');
  if (parts[0] === 'agent' && parts.length >= 3) {
    const rest = parts.slice(2);
    const channel = rest.length === 1 || peerKinds.includes(rest[0] ?? '') ? 'direct' : rest[0] || 'direct';
    return { agentId: parts[1] || 'main', channel };
  }
  return { agentId: 'main', channel: 'direct' };
}

/** A name for a chat without a title: the label of a named chat, `Main` for an agent's main session. */
export function readableKey(key: string): string {
  const parts = key.split(':');
  if (parts[0] !== 'agent' || parts.length < 3) return key;
  const rest = parts.slice(2).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  if (rest.length === 1) return rest[0] === 'main' ? (parts[1] === 'main' ? 'Main' : `${parts[1]} · main`) : rest[0]!;
  return rest.filter((part) => !peerKinds.includes(part)).join(' · ');
}

// A row without agentId (a stand-in or older gateway) is read from its key rather than crashing the view.
export function toSessionRow(row: WireSessionRow): SessionRow {
  const named = row.displayName && row.displayName !== row.key ? row.displayName : undefined;
  const result: SessionRow = {
    key: row.key,
    agentId: row.agentId || parseSessionKey(row.key).agentId,
    channel: row.channel ?? parseSessionKey(row.key).channel,
    title: row.title || named || readableKey(row.key),
    updatedAt: row.updatedAt,
  };
  if (row.title) result.customTitle = row.title;
  if (named) result.displayName = named;
  if (row.pinned) result.pinned = true;
  if (row.archived) result.archived = true;
  return result;
}

/**
 * Groups by agent, then channel; pinned first, then newest; the search keeps chats whose title or
 * key contains it, or whose messages matched (`matches`, from sessions.search).
 */
export function groupSessions(
  rows: SessionRow[],
  search: string,
  options: { showArchived?: boolean; matches?: Record<string, string> } = {},
): { agentId: string; channel: string; rows: SessionRow[] }[] {
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, { agentId: string; channel: string; rows: SessionRow[] }>();
  for (const row of rows) {
    if (row.archived && !options.showArchived) continue;
    const named = row.title.toLowerCase().includes(needle) || row.key.toLowerCase().includes(needle);
    if (needle && !named && options.matches?.[row.key] === undefined) continue;
    const id = `${row.agentId}\u0000${row.channel}`;
    let group = groups.get(id);
    if (!group) {
      group = { agentId: row.agentId, channel: row.channel, rows: [] };
      groups.set(id, group);
    }
    group.rows.push(row);
  }
  const pinRank = (row: SessionRow) => (row.pinned ? 0 : 1);
  for (const group of groups.values()) {
    group.rows.sort((a, b) => pinRank(a) - pinRank(b) || (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
  }
  return [...groups.values()].sort((a, b) => a.agentId.localeCompare(b.agentId) || a.channel.localeCompare(b.channel));
}

export function createSessionsStore(client: GatewayPort): StoreApi<SessionsState> & { dispose(): void } {
  /** Runs a change; a refusal shows in the list's error line, and the list is re-read either way. */
  const change = async (job: () => Promise<void>) => {
    try {
      await job();
      store.setState({ error: undefined });
    } catch (error) {
      store.setState({ error: errorText(error) });
    }
    await store.getState().refresh();
  };
  let searchSeq = 0;
  const store = createStore<SessionsState>((set, get) => ({
    sessions: [],
    search: '',
    matches: {},
    loading: false,
    activeKey: MAIN_SESSION,
    showArchived: false,
    setSearch: (search) => {
      set({ search });
      // What was said, not only titles: the gateway's full-text search; the newest query wins.
      const query = search.trim();
      const asked = ++searchSeq;
      if (query.length < 2) {
        set({ matches: {} });
        return;
      }
      client
        .request('sessions.search', { query, limit: 50 })
        .then((result) => {
          if (asked !== searchSeq) return;
          set({ matches: Object.fromEntries(result.results.map((hit) => [hit.key, hit.snippet])) });
        })
        // An older gateway without sessions.search: the title filter still works.
        .catch(() => {
          if (asked === searchSeq) set({ matches: {} });
        });
    },
    select: (activeKey) => set({ activeKey }),
    setShowArchived: (showArchived) => set({ showArchived }),
    async refresh() {
      set({ loading: true });
      try {
        const result = await client.request('sessions.list', { limit: 500, archived: 'all' });
        const sessions = result.sessions.map(toSessionRow);
        if (!sessions.some((s) => s.key === get().activeKey) && get().activeKey === MAIN_SESSION) {
          sessions.unshift({ key: MAIN_SESSION, agentId: 'main', channel: 'direct', title: 'Main' });
        }
        set({ sessions, loading: false });
      } catch (error) {
        set({ loading: false, error: errorText(error) });
      }
    },
    create: (agentId) =>
      change(async () => {
        const active = get().sessions.find((row) => row.key === get().activeKey);
        const created = await client.request('sessions.create', {
          agentId: agentId ?? active?.agentId ?? parseSessionKey(get().activeKey).agentId,
        });
        set({ activeKey: created.key });
      }),
    rename: (key, title) =>
      change(async () => {
        await client.request('sessions.rename', { key, title: title.trim() === '' ? null : title });
      }),
    setPinned: (key, pinned) =>
      change(async () => {
        await client.request('sessions.pin', { key, pinned });
      }),
    setArchived: (key, archived) =>
      change(async () => {
        await client.request('sessions.archive', { key, archived });
        if (archived && get().activeKey === key) set({ activeKey: MAIN_SESSION });
      }),
    remove: (key) =>
      change(async () => {
        await client.request('sessions.delete', { key, deleteTranscript: true });
        if (get().activeKey === key) set({ activeKey: MAIN_SESSION });
      }),
    fork: (key, from) =>
      change(async () => {
        const forked = await client.request('sessions.fork', { key, ...from });
        set({ activeKey: forked.key });
      }),
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
