import { z } from 'zod';
import { method } from './define.js';

/** `orchestrator` may spawn subagents of its own; `leaf` may not. */
export type SubagentRole = 'orchestrator' | 'leaf';
/** `foreground`: the parent's turn waits for the result; `background`: the parent is told when it ends. */
export type SubagentMode = 'foreground' | 'background';
export type SubagentStatus = 'running' | 'ok' | 'error' | 'aborted' | 'timeout';

/** What a subagent's model calls cost so far (counted in usage under the session that spawned it). */
export interface SubagentCost {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** One subagent as the wire shows it: enough for a live card (status, steps, cost) and its transcript. */
export interface SubagentView {
  id: string;
  agentId: string;
  /** Its own session (`agent:<agentId>:subagent:<id>`): `chat.history` shows its transcript. */
  sessionKey: string;
  runId: string;
  /** The session that spawned it, and the one at the top of the chain (where the person asked). */
  parentSessionKey: string;
  rootSessionKey: string;
  /** The parent's `sessions_spawn` call that started it: a UI shows the subagent's card in its place. */
  toolCallId?: string;
  /** The parent's depth + 1 (a person's session is 0). */
  depth: number;
  role: SubagentRole;
  /** `children` may list and abort its own subagents; `none` (a leaf) may not. */
  controlScope: 'children' | 'none';
  mode: SubagentMode;
  label?: string;
  task: string;
  status: SubagentStatus;
  startedAtMs: number;
  endedAtMs?: number;
  /** Tool calls made so far. */
  steps: number;
  /** The final reply (clipped), once it ended `ok`. */
  result?: string;
  error?: string;
  cost: SubagentCost;
}

/** One thing a running subagent did: a piece of its reply, a tool call, its result, a metered model call. */
export type SubagentStep =
  | { kind: 'text'; delta: string }
  | { kind: 'tool_call'; toolCallId: string; name: string }
  | { kind: 'tool_result'; toolCallId: string; name: string; isError: boolean }
  /** Its cost so far, after each of its model calls. */
  | { kind: 'cost'; cost: SubagentCost };

/** `subagent`: started, each step (its streamed text, tool calls and results, cost), ended with status, result and cost. */
export type SubagentEvent =
  | { phase: 'started'; subagent: SubagentView }
  | { phase: 'step'; id: string; sessionKey: string; parentSessionKey: string; step: SubagentStep }
  | { phase: 'ended'; subagent: SubagentView };

export interface SubagentsListResult {
  subagents: SubagentView[];
}

export interface SubagentsAbortResult {
  /** Ids of the subagents aborted (the one named and its own subagents, or every one under a session). */
  aborted: string[];
}

export const subagentsMethods = {
  /** Newest first; `sessionKey` narrows to those spawned (at any depth) under that session. */
  'subagents.list': method<SubagentsListResult>()({
    scope: 'operator.read',
    params: () =>
      z
        .object({
          sessionKey: z.string().min(1).optional(),
          agentId: z.string().min(1).optional(),
          /** Default: every subagent this host has run since it started. */
          status: z.enum(['running', 'all']).optional(),
        })
        .strict(),
  }),
  /** Aborts one subagent (`id`) or every running one under a session (`sessionKey`), children first. */
  'subagents.abort': method<SubagentsAbortResult>()({
    scope: 'operator.write',
    params: () =>
      z
        .object({ id: z.string().min(1).optional(), sessionKey: z.string().min(1).optional() })
        .strict()
        .refine((value) => value.id !== undefined || value.sessionKey !== undefined, {
          message: 'give id (one subagent) or sessionKey (every subagent under that session)',
        }),
  }),
};
