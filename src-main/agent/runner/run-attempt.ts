import { linkedAbortController } from '../../base/abort.js';
import type { AuthProfile } from '../../providers/index.js';
import { budgetWithFixedText, computePromptBudget } from '../context/index.js';
import { runAgentLoop } from '../loop/agent-loop.js';
import type { AgentLoopResult } from '../loop/loop-events.js';
import type { AgentMessage } from '../messages.js';
import type { RunnerDeps, TurnRequest } from './runner-types.js';

// One attempt = one full loop turn with one credential, under the turn's abort signal and the
// per-attempt timeout (a clock timer, so tests can drive it).

export interface AttemptResult {
  result: AgentLoopResult;
  timedOut: boolean;
}

export async function runAttempt(
  deps: RunnerDeps,
  request: TurnRequest,
  model: ReturnType<RunnerDeps['models']['create']>,
  modelRef: string,
  profile: AuthProfile | undefined,
  limits: { contextWindow: number; maxOutputTokens: number },
): Promise<AttemptResult> {
  const { controller, dispose: unlink } = linkedAbortController(request.signal);
  let timedOut = false;
  const timer =
    request.timeoutMs !== undefined
      ? deps.clock.setTimeout(() => {
          timedOut = true;
          controller.abort(new Error('attempt timed out'));
        }, request.timeoutMs)
      : undefined;
  const budget = computePromptBudget({ contextWindow: limits.contextWindow, reserveTokens: limits.maxOutputTokens });
  // Counted only if the context engine needs more than the bound (see token-budget.ts).
  const callBudget = budgetWithFixedText({
    promptTokens: budget.promptTokens,
    contextWindow: limits.contextWindow,
    fixedText: `${request.system ?? ''}${JSON.stringify(request.tools.map((t) => [t.name, t.description]))}`,
  });
  try {
    const result = await runAgentLoop({
      model,
      modelRef,
      profileId: profile?.id,
      system: request.system,
      history: request.history,
      tools: request.tools,
      onDemand: request.onDemand,
      toolContext: request.toolContext,
      hooks: request.hooks,
      budget: callBudget,
      maxOutputTokens: limits.maxOutputTokens,
      signal: controller.signal,
      log: deps.log,
      now: () => deps.clock.now(),
      newId: deps.newId,
      onEvent: request.onEvent,
    });
    return { result, timedOut: timedOut && !request.signal.aborted };
  } finally {
    timer?.dispose();
    unlink();
  }
}

export function contextUsage(request: TurnRequest, contextWindow: number): number {
  if (request.hooks?.contextUsage) return request.hooks.contextUsage();
  const last = [...request.history]
    .reverse()
    .find((m): m is Extract<AgentMessage, { kind: 'assistant' }> => m.kind === 'assistant' && m.usage !== undefined);
  return last?.usage ? last.usage.inputTokens / contextWindow : 0;
}

/** Resolves true when the wait completed, false when aborted first. */
export function sleep(deps: RunnerDeps, ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0 || signal.aborted) return Promise.resolve(!signal.aborted);
  return new Promise((resolve) => {
    const onAbort = () => {
      timer.dispose();
      resolve(false);
    };
    const timer = deps.clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
