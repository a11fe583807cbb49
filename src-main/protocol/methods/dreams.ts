import { z } from 'zod';
import { method } from './define.js';
import { agentId, userId } from './memory.js';

export interface DreamCandidateInfo {
  text: string;
  path: string;
  line: number;
  recalls: number;
  uniqueQueries: number;
  score: number;
  signals: Record<string, number>;
  /** Empty when every gate passes. */
  failures: string[];
  withdrawn?: string;
}

/** A promotion candidate waiting for the person's approval (review mode). */
export interface DreamPendingInfo {
  /** Short and stable: what `dreams.review` and `hearth memory promote --approve` take. */
  id: string;
  text: string;
  path: string;
  line: number;
  score: number;
  /** The day of the run that proposed it. */
  day: string;
  createdAt: number;
  /** Unified diff of MEMORY.md if this one candidate is approved, against the file as it is now. */
  diff: string;
  /** MEMORY.md changed since the candidate was made; the diff is re-based on the current file. */
  rebased: boolean;
}

export interface DreamsReviewResult {
  approved: { id: string; text: string }[];
  rejected: { id: string; text: string }[];
  /** Not approved, and why (nothing was written for them). */
  refused: { id: string; reason: string }[];
  rebased: boolean;
}

export interface DreamsRunResult {
  day: string;
  applied: boolean;
  /** `preview` wrote reports only, `review` queued candidates, `apply` wrote MEMORY.md. */
  mode: 'preview' | 'review' | 'apply';
  /** Review mode: the candidates this run left waiting. */
  queued: { id: string; text: string }[];
  notesSeen: number;
  recalls: number;
  reflections: { tag: string; count: number }[];
  truths: { text: string; confidence: number }[];
  candidates: DreamCandidateInfo[];
  promoted: string[];
}

/** The steps of one Dreaming run, in order (docs/MEMORY.md "Dreaming"). */
export type DreamPhaseName = 'ingest' | 'light' | 'rem' | 'deep' | 'write';

/**
 * One phase of a run. `done` / `total` count its units where they are known up front: ingest the
 * recent conversations read into today's notes, light the daily-note files read, rem the
 * candidates weighed, deep the candidates checked, write the files written. A run file written
 * before ingest was a phase has no `ingest` entry.
 */
export interface DreamPhaseProgress {
  name: DreamPhaseName;
  state: 'waiting' | 'running' | 'done' | 'failed' | 'skipped';
  done?: number;
  total?: number;
  /** A failed phase: what went wrong, in the words of the error. */
  error?: string;
}

/** A Dreaming run as it goes: what `dreams.status.run` returns and `dreams.changed` (progress) carries. */
export interface DreamRunView {
  /** New for every run. */
  id: string;
  mode: 'preview' | 'review' | 'apply';
  /** Who started it: a `dreams.run` request (the app), the nightly schedule, or `hearth memory promote`. */
  origin: 'app' | 'schedule' | 'cli';
  /**
   * `stalled`: still `running` in its file and its process is alive, but it has not progressed
   * (no heartbeat) for longer than the stall threshold; `dreams.clearStalled` can end it.
   */
  state: 'running' | 'done' | 'failed' | 'stalled';
  startedAt: number;
  endedAt?: number;
  /** The run's heartbeat: when it last progressed (each step, and every half minute of a long model call). */
  updatedAt?: number;
  /** A stalled run: the process that holds it (still alive). */
  pid?: number;
  /** A run ended by `dreams.clearStalled` (it had stalled): when. */
  clearedAt?: number;
  phases: DreamPhaseProgress[];
  /** A finished run: what it found and did. */
  result?: {
    day: string;
    notesSeen: number;
    recalls: number;
    candidates: number;
    promoted: number;
    queued: number;
  };
  /** A failed run: the error (also on the phase that failed, when one was going). */
  error?: string;
}

export const dreamsMethods = {
  'dreams.status': method<{
    enabled: boolean;
    cron: string;
    /** When the schedule fires next (epoch ms), while Dreaming is enabled. */
    next?: number;
    /** `memory.dreaming.review`: runs queue candidates for approval instead of writing MEMORY.md. */
    review: boolean;
    /** Candidates waiting for approval. */
    pending: number;
    /** The scope's most recent run, kept across restarts. */
    last?: { at: number; promoted: number; applied: boolean; queued?: number };
    /** The run going now (from any process), else the scope's latest one, with its phases. */
    run?: DreamRunView;
  }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId, userId }).strict(),
  }),
  'dreams.run': method<DreamsRunResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    /**
     * `apply`: write MEMORY.md now (auto-apply); `review`: queue candidates for approval; neither:
     * what `memory.dreaming.review` says (review when on, else a preview that writes no MEMORY.md).
     */
    params: () => z.object({ agentId, userId, apply: z.boolean().optional(), review: z.boolean().optional() }).strict(),
  }),
  /**
   * Ends the scope's stalled run (`run.state` `stalled` in `dreams.status`): marks it failed in its
   * run file and frees the Dreaming lock so a new run can start. Refused while the run still
   * progresses (a fresh heartbeat), when it already ended, or when `runId` is not the scope's run.
   */
  'dreams.clearStalled': method<{ run: DreamRunView }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ agentId, userId, runId: z.string().min(1).max(100) }).strict(),
  }),
  'dreams.pending': method<{ candidates: DreamPendingInfo[] }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId, userId }).strict(),
  }),
  'dreams.review': method<DreamsReviewResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          agentId,
          userId,
          approve: z.array(z.string().min(1).max(32)).max(200).optional(),
          reject: z.array(z.string().min(1).max(32)).max(200).optional(),
        })
        .strict()
        .refine(
          (p) => (p.approve?.length ?? 0) + (p.reject?.length ?? 0) > 0,
          'name at least one candidate to approve or reject',
        ),
  }),
  'dreams.candidates': method<{ candidates: DreamCandidateInfo[] }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId, userId }).strict(),
  }),
  'dreams.explain': method<{ lines: string[] }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId, userId, text: z.string().min(1).max(2000) }).strict(),
  }),
};
