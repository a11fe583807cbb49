import type { SubagentCost, SubagentView } from '../protocol/methods/subagents.js';

/** Ended subagents kept for `subagents.list` (newest first) once they are done. */
const KEEP_ENDED = 200;

/**
 * Every subagent this host started: by id, by its own session and by the session that spawned it,
 * so depth and role are known when a subagent spawns in turn and an abort reaches the whole tree.
 */
export class SubagentRegistry {
  private readonly byId = new Map<string, SubagentView>();
  private readonly bySession = new Map<string, SubagentView>();

  add(view: SubagentView): void {
    this.byId.set(view.id, view);
    this.bySession.set(view.sessionKey, view);
    this.prune();
  }

  get(id: string): SubagentView | undefined {
    return this.byId.get(id);
  }

  /** The subagent whose own session this is (undefined for a person's session). */
  ofSession(sessionKey: string): SubagentView | undefined {
    return this.bySession.get(sessionKey);
  }

  /** Newest first. */
  list(): SubagentView[] {
    return [...this.byId.values()].sort((a, b) => b.startedAtMs - a.startedAtMs);
  }

  /** Every subagent spawned under `sessionKey`, at any depth, children before their own children. */
  descendantsOf(sessionKey: string): SubagentView[] {
    const out: SubagentView[] = [];
    const walk = (parent: string) => {
      for (const view of this.byId.values()) {
        if (view.parentSessionKey !== parent) continue;
        out.push(view);
        walk(view.sessionKey);
      }
    };
    walk(sessionKey);
    return out;
  }

  addCost(sessionKey: string, call: Omit<SubagentCost, 'calls'>): SubagentView | undefined {
    const view = this.bySession.get(sessionKey);
    if (!view) return undefined;
    view.cost.calls++;
    view.cost.inputTokens += call.inputTokens;
    view.cost.outputTokens += call.outputTokens;
    view.cost.costUsd = Math.round((view.cost.costUsd + call.costUsd) * 1e6) / 1e6;
    return view;
  }

  private prune(): void {
    const ended = this.list().filter((view) => view.status !== 'running');
    for (const view of ended.slice(KEEP_ENDED)) {
      this.byId.delete(view.id);
      if (this.bySession.get(view.sessionKey) === view) this.bySession.delete(view.sessionKey);
    }
  }
}
