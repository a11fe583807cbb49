import { z } from 'zod';
import { method } from './define.js';

/** One stage of one LLM call as the cache trace recorded it (sizes and hashes only). */
export interface TraceStageSummary {
  stage: string;
  messageCount: number;
  chars: number;
  hash: string;
}

/** Why a call's prompt cache was expected to hit, or where it broke. */
export interface TraceCallExplanation {
  callId: string;
  ts: number;
  stages: TraceStageSummary[];
  verdict: 'first_call' | 'prefix_stable' | 'cache_miss';
  /** For cache_miss: the first stage whose prefix changed against the previous call of the session. */
  missStage?: string;
  /** Human-readable: "system prompt changed", "tool schemas changed", "message 3 changed". */
  reason?: string;
}

export interface TraceShowResult {
  sessionKey: string;
  calls: TraceCallExplanation[];
}

export const traceMethods = {
  'trace.show': method<TraceShowResult>()({
    scope: 'operator.read',
    params: () =>
      z
        .object({
          sessionKey: z.string().min(1),
          /** Most recent calls only (default 50). */
          limit: z.number().int().min(1).max(1000).optional(),
        })
        .strict(),
  }),
};
