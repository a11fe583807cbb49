import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  DreamCandidateInfo,
  DreamPendingInfo,
  DreamRunView,
  DreamsRunResult,
} from '../../src-main/protocol/methods/dreams.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';
import { agentsMemory, type WhoseMemory, whoseMemory } from './whose-memory.js';

export interface DreamPhase {
  name: 'light' | 'rem' | 'deep';
  summary: string;
}

export interface PromotionCandidate {
  id: string;
  text: string;
  path?: string;
  line?: number;
  score: number;
  signals: Record<string, number>;
  /** Gates this candidate did not pass; empty when it would be promoted. */
  failures: string[];
  /** `dreams.explain` lines, once asked for. */
  explanation?: string[];
}

export interface DreamsState {
  /** Whose Dreaming this is (the owner's own, with per-user memory). */
  whose: WhoseMemory;
  diary: string;
  status?: {
    enabled: boolean;
    cron: string;
    /** When the nightly run fires next (epoch ms), while enabled. */
    nextAt?: number;
    lastAt?: number;
    lastPromoted?: number;
    /** False when the last run was a preview. */
    lastApplied?: boolean;
    /** Review mode: how many the last run left waiting. */
    lastQueued?: number;
    /** `memory.dreaming.review`: promotions wait for approval. */
    review: boolean;
  };
  /** Candidates waiting for the person's approval, each with its MEMORY.md diff. */
  pending: DreamPendingInfo[];
  /** Ids being approved or rejected right now. */
  deciding: string[];
  phases: DreamPhase[];
  candidates: PromotionCandidate[];
  promoted: string[];
  running: boolean;
  /** When this view asked for a run (epoch ms), for "Starting Dreaming… (asked …)". */
  runStartedAt?: number;
  /** What the last run from this view did: its mode, counts and what it queued or promoted. */
  result?: DreamsRunResult;
  /**
   * The scope's run going now, or its latest one, whoever started it (this view, the schedule,
   * `hearth memory promote`): its phases live from `dreams.changed`, and from `dreams.status` after a reload.
   */
  currentRun?: DreamRunView;
  error?: string;
  refresh(): Promise<void>;
  /** preview: a dry run (nothing written); apply: promote; run: whatever the config says. */
  run(mode: 'run' | 'preview' | 'apply'): Promise<void>;
  explain(id: string): Promise<void>;
  /** Approve (append to MEMORY.md) or reject one waiting candidate. */
  decide(id: string, decision: 'approve' | 'reject'): Promise<void>;
  /** Ends the current run when it is stalled (the gateway refuses one that still progresses). */
  clearStalled(): Promise<void>;
  /** True while a clear is on its way. */
  clearing: boolean;
}

function toCandidate(candidate: DreamCandidateInfo, index: number): PromotionCandidate {
  return {
    id: `${candidate.path}:${candidate.line}:${index}`,
    text: candidate.text,
    path: candidate.path,
    line: candidate.line,
    score: candidate.score,
    signals: { recalls: candidate.recalls, uniqueQueries: candidate.uniqueQueries, ...candidate.signals },
    failures: candidate.failures,
  };
}

/** The three sleep phases of a run, in words (the same facts `hearth memory promote` prints). */
export function phasesOf(result: DreamsRunResult): DreamPhase[] {
  const reflections = result.reflections.map((r) => `${r.tag} (${r.count})`).join(', ');
  const truths = result.truths.map((t) => `- ${t.text} (${t.confidence.toFixed(2)})`).join('\n');
  return [
    {
      name: 'light',
      summary: `Read **${result.notesSeen}** notes and **${result.recalls}** recalls from ${result.day}.`,
    },
    { name: 'rem', summary: reflections ? `Recurring themes: ${reflections}.` : 'No recurring themes.' },
    {
      name: 'deep',
      summary:
        `${result.candidates.length} candidates scored; ${result.promoted.length} ${result.applied ? 'promoted' : 'would be promoted'}.` +
        (truths ? `\n\n${truths}` : ''),
    },
  ];
}

/** `agent`: whose Dreaming the view shows (the agent switcher's choice). */
export function createDreamsStore(
  client: GatewayPort,
  agent: () => string = () => 'main',
  now: () => number = () => 0,
): StoreApi<DreamsState> & { dispose(): void } {
  const store = createStore<DreamsState>((set, get) => ({
    whose: agentsMemory,
    diary: '',
    phases: [],
    candidates: [],
    promoted: [],
    pending: [],
    deciding: [],
    running: false,
    clearing: false,
    async refresh() {
      const whose = await whoseMemory(client).catch(() => get().whose);
      const scope = { ...whose.params, agentId: agent() };
      const [diary, status, candidates, pending] = await Promise.allSettled([
        client.request('memory.file.get', { agentId: scope.agentId, path: `${whose.folder}DREAMS.md` }),
        client.request('dreams.status', scope),
        client.request('dreams.candidates', scope),
        client.request('dreams.pending', scope),
      ]);
      const s = status.status === 'fulfilled' ? status.value : undefined;
      // An older gateway's status has no run: what this view already knows stays.
      if (s?.run) adoptRun(s.run);
      set({
        whose,
        diary: diary.status === 'fulfilled' ? diary.value.content : '',
        status: s
          ? {
              enabled: s.enabled,
              cron: s.cron,
              nextAt: s.next,
              lastAt: s.last?.at,
              lastPromoted: s.last?.promoted,
              lastApplied: s.last?.applied,
              lastQueued: s.last?.queued,
              review: s.review,
            }
          : undefined,
        pending: pending.status === 'fulfilled' ? pending.value.candidates : get().pending,
        candidates: candidates.status === 'fulfilled' ? candidates.value.candidates.map(toCandidate) : get().candidates,
        error: candidates.status === 'rejected' ? errorText(candidates.reason) : undefined,
      });
    },
    async run(mode) {
      set({ running: true, runStartedAt: now() });
      try {
        const params = {
          ...get().whose.params,
          agentId: agent(),
          ...(mode === 'run' ? {} : { apply: mode === 'apply' }),
        };
        const result = await client.request('dreams.run', params, { timeoutMs: 300_000 });
        set({
          running: false,
          result,
          phases: phasesOf(result),
          candidates: result.candidates.map(toCandidate),
          promoted: result.promoted,
          error: undefined,
        });
        if (result.applied || result.mode === 'review') await get().refresh();
      } catch (error) {
        set({ running: false, error: errorText(error) });
      }
    },
    async decide(id, decision) {
      set((s) => ({ deciding: [...s.deciding, id] }));
      let problem: string | undefined;
      try {
        const params = {
          ...get().whose.params,
          agentId: agent(),
          ...(decision === 'approve' ? { approve: [id] } : { reject: [id] }),
        };
        const outcome = await client.request('dreams.review', params);
        problem = outcome.refused.find((item) => item.id === id)?.reason;
      } catch (error) {
        problem = errorText(error);
      }
      await get().refresh();
      // Said after the refresh, which would clear it: why an approval wrote nothing.
      set((s) => ({ deciding: s.deciding.filter((item) => item !== id), ...(problem ? { error: problem } : {}) }));
    },
    async clearStalled() {
      const run = get().currentRun;
      if (run?.state !== 'stalled') return;
      set({ clearing: true });
      try {
        const cleared = await client.request('dreams.clearStalled', {
          ...get().whose.params,
          agentId: agent(),
          runId: run.id,
        });
        adoptRun(cleared.run);
        set({ clearing: false, error: undefined });
      } catch (error) {
        set({ clearing: false, error: errorText(error) });
      }
      await get().refresh();
    },
    async explain(id) {
      const candidate = get().candidates.find((c) => c.id === id);
      if (!candidate) return;
      try {
        const { lines: explanation } = await client.request('dreams.explain', {
          ...get().whose.params,
          agentId: agent(),
          text: candidate.text,
        });
        set((s) => ({ candidates: s.candidates.map((c) => (c.id === id ? { ...c, explanation } : c)) }));
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
  }));
  /** A run of another id is a new run: the result this view kept belongs to an older one. */
  function adoptRun(run: DreamRunView) {
    const known = store.getState().currentRun;
    // An event that arrives after the run's end (the file watch lags) does not undo it; a stalled
    // run that moves again is running again.
    const ended = (state: DreamRunView['state']) => state === 'done' || state === 'failed';
    if (known && known.id === run.id && ended(known.state) && !ended(run.state)) return;
    store.setState(known && known.id !== run.id ? { currentRun: run, result: undefined } : { currentRun: run });
  }
  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('dreams.changed', (event) => {
      if (event.reason !== 'progress') return void store.getState().refresh();
      // Only this view's scope: the agent it shows and, with per-user memory, the owner's own.
      if (event.agentId !== agent() || event.userId !== store.getState().whose.params.userId) return;
      adoptRun(event.run);
      // A finished run changed the reports, the diary or the queue: read them again.
      if (event.run.state === 'done' || event.run.state === 'failed') void store.getState().refresh();
    }),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
