import {
  FailoverError,
  isFailoverError,
  ModelRefError,
  ModelResolutionError,
  parseModelRef,
} from '../../providers/index.js';
import { addUsage, zeroUsage } from '../loop/loop-events.js';
import { runModel } from './run-model.js';
import type { RunnerDeps, TurnOutcome, TurnRequest } from './runner-types.js';

/**
 * One user turn: the primary model, then each fallback in order. Only a FailoverError with
 * nothing visible sent moves on to the next model; config errors and partial answers end
 * the turn as they are.
 */
export async function runTurn(deps: RunnerDeps, request: TurnRequest): Promise<TurnOutcome> {
  if (request.models.length === 0) {
    return errorOutcome(new ModelResolutionError('no model configured: set agents.defaults.model.primary'));
  }
  let models = [...request.models];
  let usage = zeroUsage();
  let last: TurnOutcome | undefined;
  let switches = 0;
  for (let index = 0; index < models.length; index++) {
    const modelRef = models[index] as string;
    let outcome: Awaited<ReturnType<typeof runModel>>;
    try {
      outcome = await runModel(deps, request, parseModelRef(modelRef));
    } catch (error) {
      if (error instanceof ModelRefError || error instanceof ModelResolutionError) return errorOutcome(error, usage);
      throw error;
    }
    if (outcome.status === 'switch') {
      // A bounded restart with the switched-to model first; the old fallbacks stay behind it.
      if (++switches > 3)
        return errorOutcome(new Error('the model was switched too many times during one turn'), usage);
      models = [outcome.to, ...models.filter((m) => m !== outcome.to)];
      index = -1;
      continue;
    }
    usage = addUsage(usage, outcome.usage);
    last = { ...outcome, usage };
    if (outcome.status !== 'error' || !isFailoverError(outcome.error) || outcome.messages.length > 0) return last;
    // A used-up spend cap covers every model: falling back would only repeat the refusal.
    if (outcome.error.reason === 'budget_exhausted') return last;
    const next = models[index + 1];
    if (next) request.onEvent({ type: 'fallback', from: modelRef, to: next, reason: outcome.error.reason });
  }
  const error = last?.error;
  if (models.length > 1 && isFailoverError(error)) {
    return {
      ...(last as TurnOutcome),
      error: new FailoverError(error.reason, `all models failed (${models.join(', ')}); last: ${error.message}`, {
        provider: error.provider,
        model: error.model,
        cause: error,
      }),
    };
  }
  return last as TurnOutcome;
}

function errorOutcome(error: Error, usage = zeroUsage()): TurnOutcome {
  return { status: 'error', messages: [], usage, stopReason: 'error', error };
}
