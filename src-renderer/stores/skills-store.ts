import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SkillInfo, SkillProposalInfo } from '../../src-main/protocol/methods/skills.js';
import { busyAction, errorText, type GatewayPort } from './gateway-port.js';

export interface SkillsState {
  agentId: string;
  skills: SkillInfo[];
  proposals: SkillProposalInfo[];
  /** The skill being read, with its SKILL.md. */
  open?: { name: string; text: string };
  /** Names or proposal ids with a request in flight. */
  busy: string[];
  loaded: boolean;
  error?: string;
  refresh(): Promise<void>;
  setAgent(agentId: string): Promise<void>;
  read(name: string): Promise<void>;
  close(): void;
  setEnabled(name: string, enabled: boolean): Promise<void>;
  setPinned(name: string, pinned: boolean): Promise<void>;
  decide(id: string, decision: 'approve' | 'reject'): Promise<void>;
}

/** The Skills view's cache of `skills.*` (the gateway stays the authority: every change re-reads the list). */
export function createSkillsStore(client: GatewayPort): StoreApi<SkillsState> & { dispose(): void } {
  const store = createStore<SkillsState>((set, get) => {
    const act = busyAction(set, get, () => get().refresh());
    return {
      agentId: 'main',
      skills: [],
      proposals: [],
      busy: [],
      loaded: false,
      async refresh() {
        try {
          const result = await client.request('skills.list', { agentId: get().agentId });
          set({ skills: result.skills, proposals: result.proposals, loaded: true });
        } catch (error) {
          set({ error: errorText(error), loaded: true });
        }
      },
      async setAgent(agentId) {
        set({ agentId, open: undefined });
        await get().refresh();
      },
      async read(name) {
        try {
          const { text } = await client.request('skills.get', { agentId: get().agentId, name });
          set({ open: { name, text }, error: undefined });
        } catch (error) {
          set({ error: errorText(error) });
        }
      },
      close: () => set({ open: undefined }),
      setEnabled: (name, enabled) =>
        act(name, () => client.request(enabled ? 'skills.enable' : 'skills.disable', { agentId: get().agentId, name })),
      setPinned: (name, pinned) =>
        act(name, () => client.request('skills.pin', { agentId: get().agentId, name, pinned })),
      decide: (id, decision) =>
        act(id, () => client.request(decision === 'approve' ? 'skills.approve' : 'skills.reject', { id })),
    };
  });
  return { ...store, dispose: () => {} };
}
