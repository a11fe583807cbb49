import { createStore, type StoreApi } from 'zustand/vanilla';
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

export interface AgentsState {
  agents: AgentRow[];
  /** The agent the chat list, new chats, Memory and Dreams follow. */
  selected: string;
  loaded: boolean;
  error?: string;
  refresh(): Promise<void>;
  select(agentId: string): void;
  /** Resolves with the new agent's id, selected at once; undefined (with `error` set) when refused. */
  create(agent: NewAgent): Promise<string | undefined>;
}

function toAgentRow(row: OpenClawAgentRow): AgentRow {
  return { id: row.id, name: row.name || row.id, ...(row.model.primary ? { model: row.model.primary } : {}) };
}

/**
 * The agents of this gateway (`agents.list`) and the one the person is looking at. Re-read when
 * the roster changes (`agents.changed`, or a config change that may add one) and on reconnect.
 */
export function createAgentsStore(client: GatewayPort): StoreApi<AgentsState> & { dispose(): void } {
  const store = createStore<AgentsState>((set, get) => ({
    agents: [],
    selected: 'main',
    loaded: false,
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
    async create(agent) {
      try {
        const created = await client.request('agents.create', {
          name: agent.name.trim(),
          ...(agent.model?.trim() ? { model: agent.model.trim() } : {}),
        });
        await get().refresh();
        set({ selected: created.agentId, error: undefined });
        return created.agentId;
      } catch (error) {
        set({ error: errorText(error) });
        return undefined;
      }
    },
  }));
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
