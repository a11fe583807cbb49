import { createStore, type StoreApi } from 'zustand/vanilla';
import { disposeAll, errorText, type GatewayPort, list, num, record, str } from './gateway-port.js';
import { agentsMemory, type WhoseMemory, whoseMemory } from './whose-memory.js';

export interface MemoryHit {
  path: string;
  line?: number;
  text: string;
  score: number;
  vector?: number;
  textScore?: number;
  decay?: number;
}

export interface DailyFile {
  date: string;
  path: string;
  entries?: number;
}

export type MemoryDoc = 'MEMORY.md' | 'USER.md';

export interface MemoryState {
  /** Whose memory is shown (the owner's own, with per-user memory). */
  whose: WhoseMemory;
  query: string;
  hits: MemoryHit[];
  searching: boolean;
  searched: boolean;
  daily: DailyFile[];
  docs: Partial<Record<MemoryDoc, string>>;
  /** Today's daily note (what was captured today), as markdown. */
  today?: { path: string; content: string };
  openFile?: { path: string; content: string };
  error?: string;
  setQuery(query: string): void;
  search(): Promise<void>;
  refresh(): Promise<void>;
  openDaily(path: string): Promise<void>;
  saveDoc(doc: MemoryDoc, content: string): Promise<boolean>;
}

const methods = {
  search: 'memory.search',
  files: 'memory.files.list',
  read: 'memory.file.get',
  write: 'memory.file.set',
} as const;

/** YYYY-MM-DD in local time: daily notes are named by the user's day, not UTC's. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function toMemoryHit(value: unknown): MemoryHit | undefined {
  const row = record(value);
  const text = str(row.snippet) || str(row.text);
  if (!text) return undefined;
  const scores = record(row.scores);
  return {
    path: str(row.path) || str(row.source),
    line: num(row.startLine) ?? num(row.line),
    text,
    score: num(row.score) ?? 0,
    vector: num(scores.vector) ?? num(row.vectorScore),
    textScore: num(scores.text) ?? num(row.textScore),
    decay: num(scores.decay) ?? num(row.decay),
  };
}

/** Splits `text` into plain and matched runs for every query word (case-insensitive), for <mark>. */
export function highlightRuns(text: string, query: string): { text: string; hit: boolean }[] {
  const words = query
    .split(/\s+/)
    .filter((w) => w.length > 1)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return [{ text, hit: false }];
  const pattern = new RegExp(`(${words.join('|')})`, 'gi');
  return text
    .split(pattern)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, hit: words.some((w) => new RegExp(`^${w}$`, 'i').test(part)) }));
}

export function createMemoryStore(client: GatewayPort, now: () => number): StoreApi<MemoryState> & { dispose(): void } {
  const store = createStore<MemoryState>((set, get) => ({
    whose: agentsMemory,
    query: '',
    hits: [],
    searching: false,
    searched: false,
    daily: [],
    docs: {},
    setQuery: (query) => set({ query }),
    async search() {
      const query = get().query.trim();
      if (!query) {
        set({ hits: [], searched: false });
        return;
      }
      set({ searching: true });
      try {
        const result = record(await client.call(methods.search, { ...get().whose.params, query, k: 20 }));
        const rows = list(result.results ?? result.hits);
        set({ hits: rows.flatMap((r) => toMemoryHit(r) ?? []), searching: false, searched: true, error: undefined });
      } catch (error) {
        set({ searching: false, error: errorText(error) });
      }
    },
    async refresh() {
      const whose = await whoseMemory(client).catch(() => get().whose);
      // The owner's daily notes: the workspace's, and with per-user memory also users/owner/memory/.
      const folder = whose.folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const ownDaily = new RegExp(`^(${folder ? `${folder}|` : ''})memory/\\d{4}-\\d{2}-\\d{2}`);
      const [files, memoryDoc, userDoc] = await Promise.allSettled([
        client.call(methods.files, {}),
        client.call(methods.read, { path: 'MEMORY.md' }),
        client.call(methods.read, { path: 'USER.md' }),
      ]);
      const docs: MemoryState['docs'] = {};
      if (memoryDoc.status === 'fulfilled') docs['MEMORY.md'] = str(record(memoryDoc.value).content);
      if (userDoc.status === 'fulfilled') docs['USER.md'] = str(record(userDoc.value).content);
      const daily: DailyFile[] =
        files.status === 'fulfilled'
          ? list(record(files.value).files)
              .map(record)
              .filter((f) => ownDaily.test(str(f.path)))
              .map((f) => ({ date: str(f.date) || str(f.path).replace(/^.*\/|\.md$/g, ''), path: str(f.path) }))
              .sort((a, b) => b.date.localeCompare(a.date))
          : [];
      // A day may have several notes (memory/<date>.md, memory/<date>-<slug>.md): show them together.
      const todays = daily.filter((d) => d.date === localDay(now()));
      let today: MemoryState['today'];
      if (todays.length > 0) {
        const contents = await Promise.all(
          todays.map((d) =>
            client.call(methods.read, { path: d.path }).then(
              (r) => str(record(r).content),
              () => '',
            ),
          ),
        );
        today = { path: todays[0]!.path, content: contents.filter(Boolean).join('\n\n---\n\n') };
      }
      set({ whose, daily, docs, today, error: files.status === 'rejected' ? errorText(files.reason) : undefined });
    },
    async openDaily(path) {
      try {
        const result = record(await client.call(methods.read, { path }));
        set({ openFile: { path, content: str(result.content) } });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async saveDoc(doc, content) {
      try {
        await client.call(methods.write, { path: doc, content });
        set((s) => ({ docs: { ...s.docs, [doc]: content }, error: undefined }));
        return true;
      } catch (error) {
        set({ error: errorText(error) });
        return false;
      }
    },
  }));
  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('memory.changed', () => void store.getState().refresh()),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
