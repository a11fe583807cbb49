import type { AgentRuntime, RunRecord } from '../../agent/index.js';
import { type Disposable, DisposableStore } from '../../base/index.js';
import { notFound } from '../../protocol/index.js';
import { MAIN_SESSION_KEY } from '../../sessions/index.js';
import type { MethodRouter } from '../method-router.js';

export interface AgentMethodsDeps {
  runtime: AgentRuntime;
}

function finalResult(run: RunRecord) {
  const status = run.status === 'running' ? ('error' as const) : run.status;
  return {
    runId: run.runId,
    status,
    summary: run.status === 'error' ? (run.error?.message ?? 'the turn failed') : run.text,
    result: { text: run.text, ...(run.error ? { error: run.error.message } : {}) },
  };
}

/** `agent` is two-phase: `{status:"accepted"}` at once, then the final result when the turn ends. */
export function registerAgentMethods(router: MethodRouter, deps: AgentMethodsDeps): Disposable {
  const store = new DisposableStore();
  const { runtime } = deps;

  store.add(
    router.handle('agent', async (params, call) => {
      const { run, reused } = runtime.start({
        runId: params.idempotencyKey,
        sessionKey: params.sessionKey ?? MAIN_SESSION_KEY,
        message: params.message,
        timeoutMs: params.timeoutMs,
      });
      if (reused && run.status === 'running') return { runId: run.runId, status: 'in_flight' as const };
      if (reused) return finalResult(run);
      call.acknowledge({ runId: run.runId, status: 'accepted' });
      await run.done;
      return finalResult(run);
    }),
  );

  store.add(
    router.handle('agent.wait', async (params) => {
      const run = await runtime.wait(params.runId, params.timeoutMs ?? 30_000);
      if (!run) throw notFound(`unknown or expired run id "${params.runId}"`);
      return {
        runId: run.runId,
        status: run.status === 'running' ? ('timeout' as const) : run.status,
        startedAt: run.startedAt,
        endedAt: run.endedAt,
        ...(run.error ? { error: run.error.message } : {}),
      };
    }),
  );
  return store;
}
