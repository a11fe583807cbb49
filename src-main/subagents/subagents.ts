import { randomUUID } from 'node:crypto';
import type { RunRecord } from '../agent/index.js';
import { type RunWait, type TurnRunner, waitForRun } from '../agents-talk/index.js';
import type { Logger } from '../base/logger.js';
import type {
  SubagentEvent,
  SubagentMode,
  SubagentRole,
  SubagentStatus,
  SubagentStep,
  SubagentView,
} from '../protocol/methods/subagents.js';
import { formatSessionKey } from '../sessions/index.js';
import { SubagentRegistry } from './subagent-registry.js';
import type { SubagentsSettings } from './subagents-config.js';

const RESULT_MAX_CHARS = 4_000;

export interface SpawnInput {
  parent: { agentId: string; sessionKey: string };
  task: string;
  mode: SubagentMode;
  role: SubagentRole;
  label?: string;
  /** The parent's `sessions_spawn` call, so a UI can show the subagent where it was spawned. */
  toolCallId?: string;
  /** The spawning turn's abort signal: aborting it aborts a foreground subagent (and its own). */
  signal?: AbortSignal;
}

export type SpawnResult = { ok: true; subagent: SubagentView } | { ok: false; reason: string };

export interface Subagents {
  spawn(input: SpawnInput): Promise<SpawnResult>;
  /** The subagent and every one under it, children first; ids of those that were still running. */
  abort(id: string): string[];
  /** Every running subagent under a session (a person's chat or a subagent's own). */
  abortUnder(sessionKey: string): string[];
  list(filter?: { under?: string; agentId?: string; running?: boolean }): SubagentView[];
  get(id: string): SubagentView | undefined;
  ofSession(sessionKey: string): SubagentView | undefined;
  /** A model call of a subagent's session was metered (usage onDidRecord). */
  recordCost(sessionKey: string, call: { inputTokens: number; outputTokens: number; costUsd: number }): void;
  /** Its reply text, a tool call or result in a subagent's session (its `agent` events), for a UI's live card. */
  recordStep(sessionKey: string, step: Exclude<SubagentStep, { kind: 'cost' }>): void;
  /** Aborts every running subagent (the host is shutting down). */
  dispose(): void;
}

export interface SubagentsDeps {
  runner(): TurnRunner;
  settings(agentId: string): SubagentsSettings;
  publish(event: SubagentEvent): void;
  /** Puts a notice in the parent's transcript (a background subagent ended). */
  notify(parent: { agentId: string; sessionKey: string }, text: string): Promise<void>;
  /** Runs `start` so the subagent's model calls are counted under the session at the top (the usage meter). */
  billedTo<T>(rootSessionKey: string, start: () => T): T;
  now(): number;
  log: Logger;
  newId?(): string;
}

/**
 * Subagents: a task run in a child session `agent:<agentId>:subagent:<id>` (the minimal
 * bootstrap: AGENTS, TOOLS, SOUL, IDENTITY, USER) on the `subagent` lane, so it never waits for the
 * lane its parent holds. Depth is the parent's + 1 (a person's session is 0), capped by
 * `subagents.maxDepth`; a `leaf` may not spawn, and one at the cap is a leaf whatever was asked.
 * Foreground: the parent's turn waits and gets the reply as its tool result. Background: the
 * parent's turn goes on and is told when it ends (the `subagent` event and a notice in its transcript).
 */
export function createSubagents(deps: SubagentsDeps): Subagents {
  const registry = new SubagentRegistry();
  const newId = deps.newId ?? (() => randomUUID().replaceAll('-', '').slice(0, 12));

  const publishStep = (view: SubagentView, step: SubagentStep) =>
    deps.publish({
      phase: 'step',
      id: view.id,
      sessionKey: view.sessionKey,
      parentSessionKey: view.parentSessionKey,
      step,
    });

  const abortOne = (view: SubagentView): boolean => {
    if (view.status !== 'running') return false;
    return deps.runner().abort(view.sessionKey, view.runId).length > 0;
  };
  const abortTree = (view: SubagentView): string[] => {
    const aborted: string[] = [];
    // Children first: none of them outlives the abort of the one that waits on it.
    for (const child of registry.descendantsOf(view.sessionKey).reverse()) if (abortOne(child)) aborted.push(child.id);
    if (abortOne(view)) aborted.push(view.id);
    return aborted;
  };

  const finish = (view: SubagentView, run: RunRecord | undefined, timedOut: boolean) => {
    const status: SubagentStatus = timedOut ? 'timeout' : run?.status === 'running' || !run ? 'error' : run.status;
    view.status = status;
    view.endedAtMs = deps.now();
    const text = run?.text.trim() ?? '';
    if (status === 'ok')
      view.result = text.length > RESULT_MAX_CHARS ? `${text.slice(0, RESULT_MAX_CHARS)}…` : text || '(no reply)';
    else if (status === 'error') view.error = run?.error?.message ?? 'the turn ended without a result';
    else if (status === 'timeout')
      view.error = `it ran longer than ${Math.round(deps.settings(view.agentId).timeoutMs / 1000)} s (subagents.timeoutSeconds)`;
    // Its own subagents do not outlive it.
    if (status !== 'ok') for (const child of registry.descendantsOf(view.sessionKey)) abortOne(child);
    deps.publish({ phase: 'ended', subagent: { ...view } });
  };

  const noticeOf = (view: SubagentView) => {
    const name = `Subagent ${view.id}${view.label ? ` "${view.label}"` : ''} (${view.sessionKey})`;
    const cost = `${view.cost.calls} model call(s), $${view.cost.costUsd.toFixed(4)}`;
    if (view.status === 'ok') return `${name} finished (${cost}):\n\n${view.result}`;
    return `${name} ended ${view.status}${view.error ? `: ${view.error}` : ''} (${cost}).`;
  };

  const service: Subagents = {
    async spawn(input) {
      const { parent } = input;
      const over = registry.ofSession(parent.sessionKey);
      const depth = (over?.depth ?? 0) + 1;
      const settings = deps.settings(parent.agentId);
      if (over?.role === 'leaf') {
        const why =
          over.depth >= settings.maxDepth
            ? `subagents may nest ${settings.maxDepth} deep (agents.defaults.subagents.maxDepth) and this one is at depth ${over.depth}`
            : `this subagent (${over.id}) is a leaf (role chosen by its parent): it may not spawn subagents`;
        return { ok: false, reason: `${why}; do the work yourself and reply` };
      }
      if (settings.maxDepth === 0) {
        return {
          ok: false,
          reason: `subagents are off for ${parent.agentId} (subagents.maxDepth is 0 in hearth.json's agents section)`,
        };
      }
      if (depth > settings.maxDepth) {
        return {
          ok: false,
          reason: `subagents may nest ${settings.maxDepth} deep (agents.defaults.subagents.maxDepth) and this session is at depth ${depth - 1}: do the work yourself`,
        };
      }
      const task = input.task.trim();
      if (!task) return { ok: false, reason: 'task is empty: say what the subagent should do' };
      // One at the cap could not spawn anyway: it is told so up front.
      const role: SubagentRole = depth >= settings.maxDepth ? 'leaf' : input.role;
      const id = newId();
      const sessionKey = formatSessionKey({ kind: 'task', agentId: parent.agentId, scope: 'subagent', id });
      const rootSessionKey = over?.rootSessionKey ?? parent.sessionKey;
      const view: SubagentView = {
        id,
        agentId: parent.agentId,
        sessionKey,
        runId: `subagent-${id}`,
        parentSessionKey: parent.sessionKey,
        rootSessionKey,
        ...(input.toolCallId ? { toolCallId: input.toolCallId } : {}),
        depth,
        role,
        controlScope: role === 'orchestrator' ? 'children' : 'none',
        mode: input.mode,
        ...(input.label ? { label: input.label } : {}),
        task,
        status: 'running',
        startedAtMs: deps.now(),
        steps: 0,
        cost: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
      };
      const message = [
        `[Task from ${parent.sessionKey}: you are subagent ${id} at depth ${depth} of ${settings.maxDepth}, role ${role}` +
          (role === 'orchestrator' ? ' (you may spawn subagents of your own)' : ' (you may not spawn subagents)') +
          `. Your final reply is handed back as the result; make it complete.]`,
        '',
        task,
      ].join('\n');
      const runner = deps.runner();
      let started: RunRecord;
      try {
        started = deps.billedTo(
          rootSessionKey,
          () => runner.start({ runId: view.runId, sessionKey, message, lane: 'subagent' }).run,
        );
      } catch (error) {
        return {
          ok: false,
          reason: `the subagent could not start: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      const outcome: Promise<RunWait> = waitForRun(runner, started, { timeoutMs: settings.timeoutMs });
      registry.add(view);
      deps.publish({ phase: 'started', subagent: { ...view } });
      const ended = outcome
        .catch((error: unknown) => {
          deps.log.warn('a subagent run failed to start', { id, error: String(error) });
          return { run: undefined, timedOut: false };
        })
        .then(({ run, timedOut }) => finish(view, run, timedOut));
      if (input.mode === 'background') {
        void ended.then(() =>
          deps
            .notify(parent, noticeOf(view))
            .catch((error: unknown) =>
              deps.log.warn('the parent was not told a subagent ended', { id, error: String(error) }),
            ),
        );
        return { ok: true, subagent: { ...view } };
      }
      // Foreground: the parent's abort reaches the subagent and everything under it.
      const onAbort = () => abortTree(view);
      input.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await ended;
      } finally {
        input.signal?.removeEventListener('abort', onAbort);
      }
      return { ok: true, subagent: { ...view } };
    },

    abort(id) {
      const view = registry.get(id);
      return view ? abortTree(view) : [];
    },

    abortUnder(sessionKey) {
      const aborted: string[] = [];
      for (const view of registry.descendantsOf(sessionKey).reverse()) if (abortOne(view)) aborted.push(view.id);
      return aborted;
    },

    list(filter = {}) {
      const under =
        filter.under === undefined ? undefined : new Set(registry.descendantsOf(filter.under).map((v) => v.id));
      return registry
        .list()
        .filter((view) => !under || under.has(view.id))
        .filter((view) => filter.agentId === undefined || view.agentId === filter.agentId)
        .filter((view) => !filter.running || view.status === 'running')
        .map((view) => ({ ...view, cost: { ...view.cost } }));
    },

    get: (id) => {
      const view = registry.get(id);
      return view ? { ...view, cost: { ...view.cost } } : undefined;
    },
    ofSession: (sessionKey) => registry.ofSession(sessionKey),

    recordCost(sessionKey, call) {
      const view = registry.addCost(sessionKey, call);
      if (view?.status !== 'running') return;
      publishStep(view, { kind: 'cost', cost: { ...view.cost } });
    },

    recordStep(sessionKey, step) {
      const view = registry.ofSession(sessionKey);
      if (view?.status !== 'running') return;
      if (step.kind === 'tool_call') view.steps++;
      publishStep(view, step);
    },

    dispose() {
      for (const view of registry.list()) abortOne(view);
    },
  };
  return service;
}
