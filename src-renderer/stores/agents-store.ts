import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AgentBindingParams,
  AgentDetails,
  PersonaFileName,
} from '../../src-main/protocol/methods/agents-admin.js';
import type { OpenClawAgentRow } from '../../src-main/protocol/methods/openclaw-agents.js';
import { errorText, type GatewayPort } from './gateway-port.js';

export interface AgentRow {
  id: string;
  name: string;
  /** `provider/model`, or undefined when the agent uses agents.defaults. */
  model?: string;
}

export interface NewAgent {
  name: string;
  model?: string;
}

/** What the editor sends: agents.create / agents.update's settings (null clears one). */
export interface AgentEdits {
  name?: string;
  emoji?: string;
  avatar?: string;
  model?: string | null;
  fallbacks?: string[];
  toolProfile?: 'minimal' | 'coding' | 'full' | 'custom';
  engine?: AgentDetails['engine'];
  memoryScope?: 'per-agent' | 'per-user' | null;
  exec?: { security?: 'deny' | 'allowlist' | 'full'; ask?: 'off' | 'on-miss' | 'always' } | null;
  bindings?: AgentBindingParams[];
}

export interface AgentsState {
  agents: AgentRow[];
  /** The agent the chat list, new chats, Memory and Dreams follow. */
  selected: string;
  loaded: boolean;
  error?: string;
  /** The configured models the editor offers (`models.list`). */
  models: string[];
  refresh(): Promise<void>;
  select(agentId: string): void;
  /** Resolves with the new agent's id, selected at once; undefined (with `error` set) when refused. */
  create(agent: NewAgent & AgentEdits): Promise<string | undefined>;
  /** Every setting of one agent (agents.get); undefined with `error` set when it cannot be read. */
  details(agentId: string): Promise<AgentDetails | undefined>;
  /** True when saved; false with `error` naming what was refused. */
  update(agentId: string, edits: AgentEdits): Promise<boolean>;
  /** `deleteFiles`: also its sessions, memory and (inside HEARTH_HOME) workspace. Resolves with what was kept. */
  remove(
    agentId: string,
    deleteFiles: boolean,
  ): Promise<{ keptWorkspace?: string; removedFiles: string[] } | undefined>;
  loadModels(): Promise<void>;
  readPersona(agentId: string, name: PersonaFileName): Promise<string | undefined>;
  writePersona(agentId: string, name: PersonaFileName, content: string): Promise<boolean>;
  clearError(): void;
}

function toAgentRow(row: OpenClawAgentRow): AgentRow {
  return { id: row.id, name: row.name || row.id, ...(row.model.primary ? { model: row.model.primary } : {}) };
}

/**
 * The agents of this gateway (`agents.list`) and the one the person is looking at. Re-read when
 * the roster changes (`agents.changed`, or a config change that may add one) and on reconnect.
 */
export function createAgentsStore(client: GatewayPort): StoreApi<AgentsState> & { dispose(): void } {
  const store = createStore<AgentsState>((set, get) => {
    /** Runs one request; a refusal lands in `error` (the gateway's message names the field). */
    const attempt = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
      try {
        const result = await run();
        set({ error: undefined });
        return result;
      } catch (error) {
        set({ error: errorText(error) });
        return undefined;
      }
    };
    return {
      agents: [],
      selected: 'main',
      loaded: false,
      models: [],
      async refresh() {
        try {
          const result = await client.request('agents.list', {});
          const agents = result.agents.map(toAgentRow);
          // A selected agent someone removed falls back to the default one, never to nothing.
          const selected = agents.some((agent) => agent.id === get().selected) ? get().selected : result.defaultId;
          set({ agents, selected, loaded: true, error: undefined });
        } catch (error) {
          set({ loaded: true, error: errorText(error) });
        }
      },
      select(agentId) {
        if (agentId !== get().selected) set({ selected: agentId });
      },
      async create({ name, model, ...edits }) {
        const created = await attempt(() =>
          client.request('agents.create', {
            name: name.trim(),
            ...(model?.trim() ? { model: model.trim() } : {}),
            ...edits,
            memoryScope: edits.memoryScope ?? undefined,
            exec: edits.exec ?? undefined,
          }),
        );
        if (!created) return undefined;
        await get().refresh();
        set({ selected: created.agentId });
        return created.agentId;
      },
      details: (agentId) => attempt(() => client.request('agents.get', { agentId })),
      async update(agentId, edits) {
        const done = await attempt(() => client.request('agents.update', { agentId, ...edits }));
        if (done) await get().refresh();
        return done !== undefined;
      },
      async remove(agentId, deleteFiles) {
        const removed = await attempt(() => client.request('agents.delete', { agentId, deleteFiles }));
        if (removed) await get().refresh();
        return removed;
      },
      async loadModels() {
        const result = await attempt(() => client.request('models.list', {}));
        if (result) set({ models: result.models.map((model) => model.id) });
      },
      async readPersona(agentId, name) {
        return (await attempt(() => client.request('agents.files.get', { agentId, name })))?.file.content;
      },
      async writePersona(agentId, name, content) {
        return (await attempt(() => client.request('agents.files.set', { agentId, name, content }))) !== undefined;
      },
      clearError() {
        set({ error: undefined });
      },
    };
  });
  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('config.changed', (change) => {
      if (change.changedPrefixes.some((prefix) => prefix === 'agents' || prefix.startsWith('agents.')))
        void store.getState().refresh();
    }),
  ];
  return Object.assign(store, {
    dispose: () => {
      for (const subscription of subscriptions) subscription.dispose();
    },
  });
}
