import { createStore, type StoreApi } from 'zustand/vanilla';
import { readConfigProblems, readParsedConfig } from '../../src-main/protocol/client/read-config-problems.js';
import { GatewayError } from '../../src-main/protocol/errors.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

export interface ConfigIssue {
  path: string;
  message: string;
}

export interface ConfigState {
  raw: string;
  parsed: Record<string, unknown>;
  hash?: string;
  /** Where hearth.json is on the gateway's machine. */
  path?: string;
  loaded: boolean;
  saving: boolean;
  issues: ConfigIssue[];
  savedAt?: number;
  error?: string;
  /** hearth.json's JSON Schema (config.schema), once asked for: what Settings' forms are drawn from. */
  schema?: unknown;
  /** Refused edits' reason when the file changed under them (a hand edit): saving again applies them over it. */
  conflict?: boolean;
  refresh(): Promise<void>;
  save(raw: string): Promise<boolean>;
  loadSchema(): Promise<void>;
  /** A JSON merge patch through config.patch against the hash last read, so a concurrent edit is refused, not lost. */
  patch(patch: Record<string, unknown>): Promise<boolean>;
}

function readReason(details: unknown): unknown {
  return details && typeof details === 'object' && 'reason' in details ? details.reason : undefined;
}

/** Schema problems arrive as `details.errors` on INVALID_REQUEST from config.set. */
export function issuesOf(error: unknown): ConfigIssue[] {
  return error instanceof GatewayError ? readConfigProblems(error.details) : [];
}

export function createConfigStore(client: GatewayPort, now: () => number): StoreApi<ConfigState> & { dispose(): void } {
  const store = createStore<ConfigState>((set, get) => ({
    raw: '',
    parsed: {},
    loaded: false,
    saving: false,
    issues: [],
    async refresh() {
      try {
        const result = await client.request('config.get', {});
        set({
          raw: result.exists || result.raw ? result.raw : '{}\n',
          parsed: readParsedConfig(result.parsed),
          hash: result.hash,
          path: result.path,
          loaded: true,
          issues: result.errors ?? [],
          error: undefined,
        });
      } catch (error) {
        set({ error: errorText(error), loaded: true });
      }
    },
    async save(raw) {
      try {
        JSON.parse(raw);
      } catch (error) {
        set({ issues: [{ path: '(file)', message: `not valid JSON: ${errorText(error)}` }] });
        return false;
      }
      set({ saving: true });
      try {
        const params: { raw: string; baseHash?: string } = { raw };
        const hash = get().hash;
        if (hash) params.baseHash = hash;
        await client.request('config.set', params);
        set({ saving: false, issues: [], savedAt: now(), error: undefined });
        await get().refresh();
        return true;
      } catch (error) {
        const issues = issuesOf(error);
        set({ saving: false, issues, error: issues.length > 0 ? undefined : errorText(error) });
        return false;
      }
    },
    async loadSchema() {
      if (get().schema !== undefined) return;
      try {
        const { schema } = await client.request('config.schema', {});
        set({ schema });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async patch(patch) {
      set({ saving: true, conflict: false });
      try {
        const hash = get().hash;
        await client.request('config.patch', hash ? { patch, baseHash: hash } : { patch });
        set({ saving: false, issues: [], savedAt: now(), error: undefined });
        await get().refresh();
        return true;
      } catch (error) {
        const issues = issuesOf(error);
        const conflict = error instanceof GatewayError && readReason(error.details) === 'base-hash-mismatch';
        // The file moved on: read it again (which clears errors), so the next save is checked against what is there now.
        if (conflict) await get().refresh();
        set({ saving: false, issues, conflict, error: issues.length > 0 ? undefined : errorText(error) });
        return false;
      }
    },
  }));
  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('config.changed', () => void store.getState().refresh()),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
