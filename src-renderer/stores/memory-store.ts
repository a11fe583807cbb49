import { createStore, type StoreApi } from 'zustand/vanilla';
import type { MemoryModelInfo, MemoryModelStatus, MemorySearchHit } from '../../src-main/protocol/methods/memory.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';
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
  /** Local embedding models (`memory.model.list`). */
  models: MemoryModelInfo[];
  /** The install in progress or the last one, as `memory.changed {reason: "model"}` reports it. */
  modelStatus?: MemoryModelStatus;
  /** The embedder memory searches with (`memory.status`), e.g. `hashed-v1:384` or `onnx:all-MiniLM-L6-v2@…`. */
  embedderId?: string;
  /** An index or re-embed running in the background. */
  reindex?: { phase: 'index' | 'reembed'; done: number; total: number };
  refreshModels(): Promise<void>;
  /** Downloads, verifies and switches memory to a model; progress arrives as events. */
  installModel(name: string): Promise<void>;
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

export function toMemoryHit(hit: MemorySearchHit): MemoryHit {
  return {
    path: hit.path,
    line: hit.startLine,
    text: hit.snippet,
    score: hit.score,
    vector: hit.vectorScore,
    textScore: hit.textScore,
    decay: hit.decay,
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

/** `agent`: whose workspace the view shows (the agent switcher's choice; `main` when there is one agent). */
export function createMemoryStore(
  client: GatewayPort,
  now: () => number,
  agent: () => string = () => 'main',
): StoreApi<MemoryState> & { dispose(): void } {
  const store = createStore<MemoryState>((set, get) => ({
    whose: agentsMemory,
    query: '',
    hits: [],
    searching: false,
    searched: false,
    daily: [],
    docs: {},
    models: [],
    setQuery: (query) => set({ query }),
    async refreshModels() {
      const [models, status] = await Promise.allSettled([
        client.request('memory.model.list', {}),
        client.request('memory.status', {}),
      ]);
      set({
        ...(models.status === 'fulfilled' ? { models: models.value.models } : {}),
        ...(status.status === 'fulfilled' ? { embedderId: status.value.embedder.id } : {}),
      });
    },
    async installModel(name) {
      const before = get().modelStatus;
      try {
        const started = await client.request('memory.model.install', { name });
        // An event that arrived meanwhile (progress, or a quick failure) is newer than this answer.
        set({ ...(get().modelStatus === before ? { modelStatus: started } : {}), error: undefined });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async search() {
      const query = get().query.trim();
      if (!query) {
        set({ hits: [], searched: false });
        return;
      }
      set({ searching: true });
      try {
        const { results } = await client.request(methods.search, {
          ...get().whose.params,
          agentId: agent(),
          query,
          k: 20,
        });
        set({ hits: results.map(toMemoryHit), searching: false, searched: true, error: undefined });
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
        client.request(methods.files, { agentId: agent() }),
        client.request(methods.read, { agentId: agent(), path: 'MEMORY.md' }),
        client.request(methods.read, { agentId: agent(), path: 'USER.md' }),
      ]);
      const docs: MemoryState['docs'] = {};
      if (memoryDoc.status === 'fulfilled') docs['MEMORY.md'] = memoryDoc.value.content;
      if (userDoc.status === 'fulfilled') docs['USER.md'] = userDoc.value.content;
      const daily: DailyFile[] =
        files.status === 'fulfilled'
          ? files.value.files
              .filter((file) => ownDaily.test(file.path))
              .map((file) => ({ date: file.date || file.path.replace(/^.*\/|\.md$/g, ''), path: file.path }))
              .sort((a, b) => b.date.localeCompare(a.date))
          : [];
      // A day may have several notes (memory/<date>.md, memory/<date>-<slug>.md): show them together.
      const todays = daily.filter((d) => d.date === localDay(now()));
      let today: MemoryState['today'];
      if (todays.length > 0) {
        const contents = await Promise.all(
          todays.map((d) =>
            client.request(methods.read, { agentId: agent(), path: d.path }).then(
              (file) => file.content,
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
        const file = await client.request(methods.read, { agentId: agent(), path });
        set({ openFile: { path, content: file.content } });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async saveDoc(doc, content) {
      try {
        await client.request(methods.write, { agentId: agent(), path: doc, content });
        set((s) => ({ docs: { ...s.docs, [doc]: content }, error: undefined }));
        return true;
      } catch (error) {
        set({ error: errorText(error) });
        return false;
      }
    },
  }));
  const subscriptions = [
    client.onDidConnect(() => {
      void store.getState().refresh();
      void store.getState().refreshModels();
    }),
    client.on('memory.changed', (event) => {
      // A model install reports its progress; the list changes only when it ends.
      if ('model' in event) {
        store.setState({ modelStatus: event.model });
        if (event.model.state === 'installed' || event.model.state === 'failed') void store.getState().refreshModels();
        return;
      }
      // Indexing progress: a bar while it runs, then the files and the embedder as they now are.
      if ('progress' in event) {
        const { phase, done, total } = event.progress;
        if (done < total) {
          store.setState({ reindex: { phase, done, total } });
          return;
        }
        store.setState({ reindex: undefined });
      }
      void store.getState().refresh();
      void store.getState().refreshModels();
    }),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
