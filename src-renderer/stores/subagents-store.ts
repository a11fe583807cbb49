import { createStore, type StoreApi } from 'zustand/vanilla';
import { readHistoryMessage } from '../../src-main/protocol/client/read-history-message.js';
import type {
  SubagentCost,
  SubagentEvent,
  SubagentStatus,
  SubagentView,
} from '../../src-main/protocol/methods/subagents.js';
import { disposeAll, errorText, type GatewayPort, record, str } from './gateway-port.js';

/** `ended`: the host no longer knows it (it restarted); how it went is in its own chat. */
export type SubagentCardStatus = SubagentStatus | 'ended';

export interface SubagentToolStep {
  toolCallId: string;
  name: string;
  state: 'running' | 'done' | 'error';
}

/** What a subagent card shows: the host's view of it plus what streamed (its text and tools). */
export interface SubagentCard {
  id: string;
  sessionKey: string;
  parentSessionKey?: string;
  toolCallId?: string;
  label?: string;
  task: string;
  mode?: SubagentView['mode'];
  depth?: number;
  status: SubagentCardStatus;
  /** Its reply text so far (streamed deltas, or read back from its transcript). */
  text: string;
  tools: SubagentToolStep[];
  steps: number;
  cost?: SubagentCost;
  result?: string;
  error?: string;
  /** How many tools it had called when text last streamed: text after a tool starts a new paragraph. */
  toolsAtText?: number;
}

export interface SubagentsState {
  cards: Record<string, SubagentCard>;
  /** The parent's `sessions_spawn` call id → subagent id. */
  byToolCall: Record<string, string>;
  /** Set while an abort is in flight, and a refusal's text afterwards. */
  aborting: Record<string, boolean>;
  error?: string;
  /** Reads the host's subagents under a chat (after a reload), once per chat until the next connect. */
  loadUnder(parentSessionKey: string): Promise<void>;
  /**
   * A spawn call the host no longer knows (it restarted): the card is rebuilt from the call's result
   * in the parent's transcript (`Subagent <id> …`), and its steps from the child's own transcript.
   */
  adopt(input: { toolCallId: string; parentSessionKey: string; input: unknown; output?: string }): void;
  /** Fills a card's text and tools from its own transcript (`chat.history`), when nothing streamed. */
  loadSteps(id: string): Promise<void>;
  abort(id: string): Promise<void>;
}

const fromView = (view: SubagentView, previous?: SubagentCard): SubagentCard => ({
  id: view.id,
  sessionKey: view.sessionKey,
  parentSessionKey: view.parentSessionKey,
  toolCallId: view.toolCallId ?? previous?.toolCallId,
  label: view.label,
  task: view.task,
  mode: view.mode,
  depth: view.depth,
  status: view.status,
  text: previous?.text ?? '',
  tools: previous?.tools ?? [],
  steps: view.steps,
  cost: view.cost,
  result: view.result,
  error: view.error,
});

/** `Subagent abc123 finished (…)`, `… ended aborted: …`, `… started in the background (agent:main:subagent:abc123, …)`. */
function parseSpawnResult(output: string): { id: string; status: SubagentCardStatus } | undefined {
  const match = /^Subagent ([A-Za-z0-9_-]+) (finished|ended (\w+)|started in the background)/.exec(output);
  if (!match) return undefined;
  const status: SubagentCardStatus =
    match[2] === 'finished'
      ? 'ok'
      : match[3] === 'aborted' || match[3] === 'timeout' || match[3] === 'error'
        ? match[3]
        : 'ended';
  return { id: match[1]!, status };
}

/** The parent's agent owns the child session (`agent:<agentId>:subagent:<id>`). */
function childSessionKey(parentSessionKey: string, id: string): string {
  const parts = parentSessionKey.split(':');
  const agentId = parts[0] === 'agent' && parts[1] ? parts[1] : 'main';
  return `agent:${agentId}:subagent:${id}`;
}

/**
 * Subagents as cards in their parent's chat: live from the `subagent` event (started, each step,
 * ended), and after a reload from `subagents.list` or, if the host restarted, from the transcripts.
 */
export function createSubagentsStore(client: GatewayPort): StoreApi<SubagentsState> & { dispose(): void } {
  const loadedParents = new Set<string>();
  const store = createStore<SubagentsState>((set, get) => {
    const put = (card: SubagentCard) =>
      set((state) => ({
        cards: { ...state.cards, [card.id]: card },
        byToolCall: card.toolCallId ? { ...state.byToolCall, [card.toolCallId]: card.id } : state.byToolCall,
      }));
    return {
      cards: {},
      byToolCall: {},
      aborting: {},
      async loadUnder(parentSessionKey) {
        if (loadedParents.has(parentSessionKey)) return;
        loadedParents.add(parentSessionKey);
        try {
          const result = await client.request('subagents.list', { sessionKey: parentSessionKey });
          for (const view of result.subagents) put(fromView(view, get().cards[view.id]));
        } catch {
          // A gateway without subagents: the cards come from the transcript instead.
          loadedParents.delete(parentSessionKey);
        }
      },
      adopt({ toolCallId, parentSessionKey, input, output }) {
        if (get().byToolCall[toolCallId] || !output) return;
        const parsed = parseSpawnResult(output);
        if (!parsed || get().cards[parsed.id]) return;
        const args = record(input);
        // A finished foreground result carries the reply after the cost line.
        const result = parsed.status === 'ok' ? output.split('\n\n').slice(1).join('\n\n') || undefined : undefined;
        const error = parsed.status !== 'ok' && parsed.status !== 'ended' ? output.split(': ').slice(1).join(': ') : '';
        put({
          id: parsed.id,
          sessionKey: childSessionKey(parentSessionKey, parsed.id),
          parentSessionKey,
          toolCallId,
          label: str(args.label) || undefined,
          task: str(args.task),
          mode: args.mode === 'background' ? 'background' : 'foreground',
          status: parsed.status,
          text: '',
          tools: [],
          steps: 0,
          ...(result ? { result } : {}),
          ...(error ? { error } : {}),
        });
      },
      async loadSteps(id) {
        const card = get().cards[id];
        if (!card || card.text || card.tools.length > 0) return;
        try {
          const history = await client.request('chat.history', { sessionKey: card.sessionKey, limit: 200 });
          let text = '';
          const tools: SubagentToolStep[] = [];
          for (const value of history.messages ?? []) {
            const m = readHistoryMessage(value);
            if (m?.kind === 'assistant') text += (text ? '\n\n' : '') + m.text;
            else if (m?.kind === 'tool_call')
              tools.push({ toolCallId: m.toolCallId ?? '', name: m.toolName ?? 'tool', state: 'running' });
            else if (m?.kind === 'tool_result' || m?.kind === 'tool') {
              const tool = tools.find((step) => step.toolCallId === (m.toolCallId ?? ''));
              if (tool) tool.state = m.isError === true ? 'error' : 'done';
            }
          }
          const current = get().cards[id];
          if (current)
            put({ ...current, text: current.text || text, tools: current.tools.length ? current.tools : tools });
        } catch (error) {
          set({ error: errorText(error) });
        }
      },
      async abort(id) {
        set((state) => ({ aborting: { ...state.aborting, [id]: true }, error: undefined }));
        try {
          await client.request('subagents.abort', { id });
        } catch (error) {
          set({ error: errorText(error) });
        } finally {
          set((state) => ({ aborting: { ...state.aborting, [id]: false } }));
        }
      },
    };
  });

  const onEvent = (event: SubagentEvent) => {
    const state = store.getState();
    if (event.phase !== 'step') {
      const card = fromView(event.subagent, state.cards[event.subagent.id]);
      if (event.phase === 'ended')
        card.tools = card.tools.map((tool) => (tool.state === 'running' ? { ...tool, state: 'error' } : tool));
      store.setState({
        cards: { ...state.cards, [card.id]: card },
        byToolCall: card.toolCallId ? { ...state.byToolCall, [card.toolCallId]: card.id } : state.byToolCall,
      });
      return;
    }
    const card = state.cards[event.id];
    // A step of a subagent started before this page connected: its card comes with subagents.list.
    if (!card) return;
    const { step } = event;
    let next: SubagentCard;
    switch (step.kind) {
      case 'text':
        next = {
          ...card,
          text: card.text + (card.text && card.toolsAtText !== card.tools.length ? '\n\n' : '') + step.delta,
          toolsAtText: card.tools.length,
        };
        break;
      case 'tool_call':
        next = {
          ...card,
          steps: card.steps + 1,
          tools: [...card.tools, { toolCallId: step.toolCallId, name: step.name, state: 'running' }],
        };
        break;
      case 'tool_result':
        next = {
          ...card,
          tools: card.tools.map((tool) =>
            tool.toolCallId === step.toolCallId ? { ...tool, state: step.isError ? 'error' : 'done' } : tool,
          ),
        };
        break;
      case 'cost':
        next = { ...card, cost: step.cost };
        break;
    }
    store.setState({ cards: { ...state.cards, [card.id]: next } });
  };

  const subscriptions = [
    client.on('subagent', onEvent),
    // What ran while the page was away is read again when a chat shows its cards.
    client.onDidConnect(() => loadedParents.clear()),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
