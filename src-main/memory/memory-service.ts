import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { HearthPaths } from '../paths/index.js';
import { processIsAlive } from './dreaming/dream-lock.js';
import {
  clearStalledDreamRun,
  type DreamOrigin,
  type DreamRunOwner,
  type DreamRunView,
  readDreamRun,
} from './dreaming/dream-run.js';
import { noteKey } from './dreaming/dream-signals.js';
import {
  analyse,
  type DreamIngestProgress,
  type DreamingDeps,
  type DreamMode,
  type DreamSummary,
  runDreaming,
} from './dreaming/dreaming.js';
import { nextDreamingRun } from './dreaming/dreaming-schedule.js';
import { readLastDream, writeLastDream } from './dreaming/last-dream.js';
import { listPending, type PendingView, type ReviewOutcome, reviewPending } from './dreaming/promotion-review.js';
import type { Embedder } from './embedders/embedder.js';
import type { MemoryBackend } from './memory-backend.js';
import type { MemoryConfig } from './memory-config.js';
import { MemoryEngine } from './memory-engine.js';
import { localDate } from './memory-files.js';
import type { IndexProgress } from './memory-index.js';
import type { MemoryScope } from './memory-scope.js';
import { dreamsStateDir } from './recall-log.js';

export interface MemoryServiceDeps {
  paths: HearthPaths;
  backend: MemoryBackend;
  config: MemoryConfig;
  /** An agent's own `memory.scope` (agents.list[].memory.scope), read on each use; undefined: config's. */
  agentScope?(agentId: string): MemoryConfig['scope'] | undefined;
  /** The embedder for an agent (built with createEmbedder from config). */
  embedder(agentId: string): Promise<Embedder> | Embedder;
  clock: Clock;
  log: Logger;
  pid?: number;
  isAlive?(pid: number): boolean;
  /** Tonight's DREAMS.md entry for an agent, written by that agent's model (the plain summary when it fails). */
  writeDiary?(summary: DreamSummary, agentId: string): Promise<string>;
  onProgress?(agentId: string, progress: IndexProgress): void;
  /** An agent's index run finished (every run: on open, after a hand edit, after promoting). */
  onSynced?(agentId: string): void;
  /** Each step of a Dreaming run this process makes, for one agent's scope (the gateway's `dreams.changed`). */
  onDreamProgress?(agentId: string, scope: MemoryScope, run: DreamRunView): void;
  /**
   * A run's ingest phase (runs that may write): the scope's recent conversations filed into today's
   * daily note (host/recent-transcripts.ts). Absent: ingest is skipped.
   */
  ingest?(agentId: string, scope: MemoryScope, progress: DreamIngestProgress): Promise<void>;
  /** A running run with no heartbeat for this long reads as stalled (default DREAM_STALL_MS). */
  dreamStallMs?: number;
  /** False when the caller syncs itself right after opening (`hearth memory index`); default true. */
  syncOnOpen?: boolean;
}

/** All agents' memory engines, opened lazily; what tools, gateway methods and the CLI share. */
export class MemoryService {
  private readonly engines = new Map<string, Promise<MemoryEngine>>();
  /** Ids of the Dreaming runs this process is making now (a run file naming this pid but no such run was interrupted). */
  private readonly runsHere = new Set<string>();

  constructor(readonly deps: MemoryServiceDeps) {}

  get config(): MemoryConfig {
    return this.deps.config;
  }

  /** The open engine for an agent. The first call opens it and starts indexing in the background. */
  engine(agentId: string): Promise<MemoryEngine> {
    let pending = this.engines.get(agentId);
    if (!pending) {
      pending = this.openEngine(agentId);
      this.engines.set(agentId, pending);
      pending.catch(() => this.engines.delete(agentId));
    }
    return pending;
  }

  private async openEngine(agentId: string): Promise<MemoryEngine> {
    const { paths, backend, config, clock, log } = this.deps;
    const engine = new MemoryEngine({
      agentId,
      workspaceDir: paths.workspaceDir(agentId),
      dbDir: paths.memoryDbDir(agentId),
      backend,
      embedder: await this.deps.embedder(agentId),
      config,
      ...(this.deps.agentScope ? { scope: () => this.deps.agentScope!(agentId) } : {}),
      clock,
      log: log.child({ agentId }),
      onProgress: (progress) => this.deps.onProgress?.(agentId, progress),
      onSynced: () => this.deps.onSynced?.(agentId),
    });
    await engine.open();
    // Sync on open: hand edits made while Hearth was not running are picked up too.
    if (this.deps.syncOnOpen === false) return engine;
    void engine.sync().catch((error) => log.error('memory indexing failed', { agentId, error: String(error) }));
    return engine;
  }

  private async dreamingDeps(agentId: string, scope: MemoryScope, origin?: DreamOrigin): Promise<DreamingDeps> {
    const engine = await this.engine(agentId);
    const { clock } = this.deps;
    return {
      workspaceDir: engine.workspaceDir,
      scope,
      embedder: engine.deps.embedder,
      now: () => clock.now(),
      lookbackDays: this.deps.config.dreaming.lookbackDays,
      lock: { pid: this.deps.pid ?? process.pid, now: () => clock.now(), isAlive: this.deps.isAlive ?? processIsAlive },
      timers: clock,
      ...(this.deps.ingest ? { ingest: (progress) => this.deps.ingest!(agentId, scope, progress) } : {}),
      writeDiary: this.deps.writeDiary && ((summary) => this.deps.writeDiary!(summary, agentId)),
      ...(origin
        ? {
            reporting: {
              origin,
              onChange: (run: DreamRunView) => {
                // Ours until dream() returns: its last state may still be on its way to the file.
                this.runsHere.add(run.id);
                this.deps.onDreamProgress?.(agentId, scope, run);
              },
            },
          }
        : {}),
    };
  }

  /**
   * One Dreaming run. `true` is the scheduled kind of run: it queues for review when
   * `memory.dreaming.review` is on, else it applies; `false` previews; a mode says exactly.
   * `origin` says who asked; the run's phases are told to `onDreamProgress` and kept for `dreamStatus`.
   */
  async dream(
    agentId: string,
    scope: MemoryScope,
    mode: boolean | DreamMode,
    options: { origin?: DreamOrigin } = {},
  ): Promise<DreamSummary> {
    const resolved: DreamMode =
      mode === true ? (this.deps.config.dreaming.review ? 'review' : 'apply') : mode === false ? 'preview' : mode;
    const deps = await this.dreamingDeps(agentId, scope, options.origin ?? 'app');
    let runId: string | undefined;
    const reporting = deps.reporting && {
      ...deps.reporting,
      onChange: (run: DreamRunView) => {
        runId = run.id;
        deps.reporting!.onChange(run);
      },
    };
    let summary: DreamSummary;
    try {
      summary = await runDreaming({ ...deps, reporting }, { mode: resolved });
    } finally {
      // runDreaming resolves once the run file holds the end state: from now on the file speaks for it.
      if (runId) this.runsHere.delete(runId);
    }
    // Kept beside the scope's Dreaming state, so "last run" survives a restart.
    await writeLastDream(deps.workspaceDir, scope, {
      at: this.deps.clock.now(),
      promoted: summary.promoted.length,
      applied: resolved === 'apply',
      ...(resolved === 'review' ? { queued: summary.queued.length } : {}),
    });
    if (summary.promoted.length > 0) await (await this.engine(agentId)).sync();
    return summary;
  }

  /** Promotion candidates waiting for the person (review mode), each with its MEMORY.md diff. */
  async pending(agentId: string, scope: MemoryScope): Promise<PendingView[]> {
    return listPending(await this.reviewDeps(agentId, scope));
  }

  /** Approves / rejects waiting candidates by id; an approval appends to MEMORY.md and re-indexes. */
  async review(
    agentId: string,
    scope: MemoryScope,
    decision: { approve?: readonly string[]; reject?: readonly string[] },
  ): Promise<ReviewOutcome> {
    const outcome = await reviewPending(await this.reviewDeps(agentId, scope), decision);
    if (outcome.approved.length > 0) await (await this.engine(agentId)).sync();
    return outcome;
  }

  private async reviewDeps(agentId: string, scope: MemoryScope) {
    const engine = await this.engine(agentId);
    const now = () => this.deps.clock.now();
    return { workspaceDir: engine.workspaceDir, scope, now, day: () => localDate(now()) };
  }

  async candidates(agentId: string, scope: MemoryScope): Promise<DreamSummary> {
    return analyse(await this.dreamingDeps(agentId, scope));
  }

  /** Why a note would or would not be promoted, signal by signal. */
  async explain(agentId: string, scope: MemoryScope, text: string): Promise<string[]> {
    if (!text.trim()) throw new Error('promote-explain needs the text of a note');
    const summary = await this.candidates(agentId, scope);
    const key = noteKey(text);
    const candidate =
      summary.candidates.find((item) => item.key === key) ?? summary.candidates.find((item) => item.key.includes(key));
    if (!candidate)
      return [
        `"${text}" has not been recalled in the last ${this.deps.config.dreaming.lookbackDays} days: nothing to promote.`,
      ];
    const s = candidate.signals;
    const f = (value: number) => value.toFixed(3);
    return [
      `candidate: ${candidate.text} (${candidate.path}:${candidate.line})`,
      `frequency     ${f(s.frequency)} × 0.24  (${candidate.recalls} recalls)`,
      `relevance     ${f(s.relevance)} × 0.30  (average score)`,
      `diversity     ${f(s.diversity)} × 0.15  (${candidate.uniqueQueries} unique queries)`,
      `recency       ${f(s.recency)} × 0.15  (last recalled ${candidate.lastRecallDay}, half-life 14 d)`,
      `consolidation ${f(s.consolidation)} × 0.10  (${candidate.days} distinct days)`,
      `conceptual    ${f(s.conceptual)} × 0.06  (${candidate.tags.length} shared tags)`,
      `light boost   ${f(s.lightBoost)} (≤ 0.06)`,
      `REM boost     ${f(s.remBoost)} (≤ 0.09)`,
      `score         ${f(s.score)}`,
      candidate.failures.length
        ? `would NOT be promoted: ${candidate.failures.join('; ')}`
        : 'would be promoted (all gates pass)',
    ];
  }

  /** Whether Dreaming is scheduled, when it runs next, and how the scope's last run went. */
  async dreamStatus(agentId: string, scope: MemoryScope) {
    const { enabled, cron, review } = this.deps.config.dreaming;
    const engine = await this.engine(agentId);
    const next = enabled ? nextDreamingRun(cron, new Date(this.deps.clock.now()))?.getTime() : undefined;
    const last = await readLastDream(engine.workspaceDir, scope);
    const pending = (await this.pending(agentId, scope)).length;
    const run = await this.dreamRun(agentId, scope);
    return {
      enabled,
      cron,
      review,
      pending,
      ...(next ? { next } : {}),
      ...(last ? { last } : {}),
      ...(run ? { run } : {}),
    };
  }

  /** The scope's Dreaming run going now — this process's or another's (`hearth memory promote`) — else its latest. */
  async dreamRun(agentId: string, scope: MemoryScope): Promise<DreamRunView | undefined> {
    const engine = await this.engine(agentId);
    return readDreamRun(dreamsStateDir(engine.workspaceDir, scope), this.runOwner());
  }

  /**
   * Ends the scope's stalled run `runId` (its process alive but no heartbeat for the stall
   * threshold) and frees its lock; a run that progresses, ended or is another is refused.
   */
  async clearStalledDream(agentId: string, scope: MemoryScope, runId: string): Promise<DreamRunView> {
    const engine = await this.engine(agentId);
    const run = await clearStalledDreamRun(dreamsStateDir(engine.workspaceDir, scope), runId, this.runOwner());
    this.deps.onDreamProgress?.(agentId, scope, run);
    return run;
  }

  /** How this process judges a run file: alive, ours, and stalled by the clock. */
  private runOwner(): DreamRunOwner & { now(): number } {
    return {
      pid: this.deps.pid ?? process.pid,
      isAlive: this.deps.isAlive ?? processIsAlive,
      runsHere: this.runsHere,
      now: () => this.deps.clock.now(),
      ...(this.deps.dreamStallMs === undefined ? {} : { stallAfterMs: this.deps.dreamStallMs }),
    };
  }

  /** After a turn: capture the user's message when it carries a trigger (scope from the resolved account). */
  async capture(agentId: string, account: string | undefined, text: string, role: 'user' | 'assistant' | 'tool') {
    const engine = await this.engine(agentId);
    return engine.capture(engine.scopeFor(account), text, role);
  }

  async close(): Promise<void> {
    const engines = [...this.engines.values()];
    this.engines.clear();
    const embedders = new Set<Embedder>();
    for (const pending of engines) {
      const engine = await pending.catch(() => undefined);
      if (!engine) continue;
      await engine.close();
      embedders.add(engine.deps.embedder);
    }
    // Agents may share one embedder (one model thread): each is closed once.
    for (const embedder of embedders) await embedder.close?.();
  }
}
