import { z } from 'zod';
import { method } from './define.js';

/** First `res` of the two-phase `agent` call, then the final one. */
export type AgentResult =
  | { runId: string; status: 'accepted' | 'in_flight' }
  | {
      runId: string;
      status: 'ok' | 'error' | 'aborted';
      summary: string;
      result: {
        text: string;
        model?: string;
        usage?: { inputTokens: number; outputTokens: number; cachedInputTokens: number };
        error?: string;
      };
    };

export interface AgentWaitResult {
  runId: string;
  status: 'ok' | 'error' | 'aborted' | 'timeout';
  startedAt: number;
  endedAt?: number;
  error?: string;
}

/** "Pause agent" (the desktop tray): while paused no new turn starts; runs in flight finish. */
export interface AgentPauseState {
  paused: boolean;
  /** When it was paused (ms since the epoch), while paused. */
  since?: number;
  /** The reason the person gave (`hearth agent pause --reason`), while paused. */
  reason?: string;
  /** The saved pause could not be read at start, so Hearth started paused: the file and what is wrong. */
  problem?: string;
}

export const agentMethods = {
  agent: method<AgentResult>()({
    scope: 'operator.write',
    params: () =>
      z
        .object({
          message: z.string(),
          idempotencyKey: z.string().min(1),
          sessionKey: z.string().min(1).optional(),
          /** OpenClaw's `--agent`: without a sessionKey the turn goes to `agent:<agentId>:main`; with one it must agree. */
          agentId: z.string().min(1).optional(),
          timeoutMs: z.number().int().positive().max(3_600_000).optional(),
          /** OpenClaw's spelling, in seconds (0: the default); `timeoutMs` wins when both are given. */
          timeout: z.number().int().min(0).max(3600).optional(),
        })
        .strict(),
    idempotent: 'handler',
  }),
  'agent.wait': method<AgentWaitResult>()({
    scope: 'operator.write',
    params: () =>
      z.object({ runId: z.string().min(1), timeoutMs: z.number().int().min(0).max(3_600_000).optional() }).strict(),
  }),
  'agent.pause': method<AgentPauseState>()({
    scope: 'operator.write',
    controlPlaneWrite: true,
    params: () => z.object({ reason: z.string().max(500).optional() }).strict(),
  }),
  'agent.resume': method<AgentPauseState>()({
    scope: 'operator.write',
    controlPlaneWrite: true,
    params: () => z.object({}).strict(),
  }),
  'agent.pause.status': method<AgentPauseState>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
};
