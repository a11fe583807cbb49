import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  McpServerStatus,
  McpServersImportResult,
  McpServersTestResult,
} from '../../src-main/protocol/methods/mcp.js';
import { busyAction, disposeAll, errorText, type GatewayPort } from './gateway-port.js';

/** One connection test: running, its answer, or why the gateway refused to run it. */
export interface McpTestRun {
  running: boolean;
  result?: McpServersTestResult;
  error?: string;
}

/** The server being added: what the gateway would import from the JSON, and each entry's trial connection. */
export interface McpDraft {
  /** The JSON the preview and tests were made from; an edit makes them stale. */
  json: string;
  preview?: McpServersImportResult;
  tests: Record<string, McpTestRun>;
  checking: boolean;
  adding: boolean;
  error?: string;
  /** The names the last `Add` wrote to hearth.json (empty: nothing was new; the preview's notes say why). */
  added?: string[];
}

export interface McpState {
  servers: McpServerStatus[];
  loaded: boolean;
  error?: string;
  /** Server names with a request in flight. */
  busy: string[];
  /** Connection tests of configured servers, by name. */
  tests: Record<string, McpTestRun>;
  /** The authorization URL `mcp.auth.start` answered, by server: the link stays in case no window opened. */
  authUrls: Record<string, string>;
  draft?: McpDraft;
  refresh(): Promise<void>;
  /** Connects a configured server and lists its tools. */
  test(name: string): Promise<void>;
  /** `mcp.auth.start`: the URL to open, or undefined when stored tokens were enough. */
  authorize(name: string): Promise<string | undefined>;
  clearAuth(name: string): Promise<void>;
  /** Asks the gateway what `json` would import (nothing written), then tries each entry once. */
  check(json: string): Promise<void>;
  /** Writes the entries of `json` to hearth.json (`mcp.servers.import` with apply). */
  add(json: string): Promise<void>;
  /** The form changed: the preview no longer describes it. */
  resetDraft(): void;
}

/** Trying a server starts its program or reaches its URL; the hub gives up after its connect timeout. */
const testTimeoutMs = 60_000;

/** The MCP view's cache of `mcp.servers.*`; `mcp.servers.changed` events make it read again. */
export function createMcpStore(client: GatewayPort): StoreApi<McpState> & { dispose(): void } {
  const store = createStore<McpState>((set, get) => {
    const act = busyAction(set, get);
    const setDraft = (json: string, patch: Partial<McpDraft>) => {
      const current = get().draft;
      // A late answer for JSON the person has since changed is dropped.
      if (current && current.json !== json) return;
      set({ draft: { json, tests: {}, checking: false, adding: false, ...current, ...patch } });
    };
    return {
      servers: [],
      loaded: false,
      busy: [],
      tests: {},
      authUrls: {},
      async refresh() {
        try {
          const { servers } = await client.request('mcp.servers.list', {});
          set({ servers, loaded: true });
        } catch (error) {
          set({ error: errorText(error), loaded: true });
        }
      },
      test: (name) =>
        act(name, async () => {
          set({ tests: { ...get().tests, [name]: { running: true } } });
          try {
            const result = await client.request('mcp.servers.test', { name }, { timeoutMs: testTimeoutMs });
            set({ tests: { ...get().tests, [name]: { running: false, result } } });
          } catch (error) {
            set({ tests: { ...get().tests, [name]: { running: false, error: errorText(error) } } });
          }
          await get().refresh();
        }),
      async authorize(name) {
        let url: string | undefined;
        // The card's last test (failed: needs authorizing) no longer tells the truth once this starts.
        const { [name]: _stale, ...tests } = get().tests;
        set({ tests });
        await act(name, async () => {
          const result = await client.request('mcp.auth.start', { server: name }, { timeoutMs: testTimeoutMs });
          const { [name]: _old, ...others } = get().authUrls;
          if (!result.authorized) url = result.authorizationUrl;
          set({ authUrls: url ? { ...others, [name]: url } : others });
          await get().refresh();
        });
        return url;
      },
      clearAuth: (name) =>
        act(name, async () => {
          await client.request('mcp.auth.clear', { server: name });
          await get().refresh();
        }),
      async check(json) {
        set({ draft: { json, tests: {}, checking: true, adding: false } });
        let preview: McpServersImportResult;
        try {
          preview = await client.request('mcp.servers.import', { json });
        } catch (error) {
          setDraft(json, { checking: false, error: errorText(error) });
          return;
        }
        const entries = Object.entries(preview.servers);
        setDraft(json, {
          preview,
          tests: Object.fromEntries(entries.map(([name]) => [name, { running: true }])),
        });
        await Promise.all(
          entries.map(async ([name, server]) => {
            let run: McpTestRun;
            try {
              run = {
                running: false,
                result: await client.request('mcp.servers.test', { name, server }, { timeoutMs: testTimeoutMs }),
              };
            } catch (error) {
              run = { running: false, error: errorText(error) };
            }
            const draft = get().draft;
            if (draft?.json === json) setDraft(json, { tests: { ...draft.tests, [name]: run } });
          }),
        );
        setDraft(json, { checking: false });
      },
      async add(json) {
        const current = get().draft;
        set({
          draft: {
            json,
            tests: current?.json === json ? current.tests : {},
            ...(current?.json === json && current.preview ? { preview: current.preview } : {}),
            checking: false,
            adding: true,
          },
        });
        try {
          const result = await client.request('mcp.servers.import', { json, apply: true });
          setDraft(json, {
            adding: false,
            preview: result,
            added: result.applied ? Object.keys(result.servers) : [],
            error: undefined,
          });
        } catch (error) {
          setDraft(json, { adding: false, error: errorText(error) });
        }
        await get().refresh();
      },
      resetDraft: () => set({ draft: undefined }),
    };
  });
  const subscriptions = [
    client.on('mcp.servers.changed', () => {
      if (store.getState().loaded) void store.getState().refresh();
    }),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
