import type { AgentRuntime, RunRecord } from '../../agent/index.js';
import { type Disposable, DisposableStore } from '../../base/index.js';
import { invalidRequest, notFound } from '../../protocol/index.js';
import { formatSessionKey, normalizeSessionKey, parseSessionKey, SessionKeyError } from '../../sessions/index.js';
import type { EventBus } from '../event-bus.js';
import type { MethodRouter } from '../method-router.js';

export interface AgentMethodsDeps {
  runtime: AgentRuntime;
  /** Where `agent.pause.changed` goes, so every window, phone and the tray show a pause made anywhere. */
  bus?: Pick<EventBus, 'publish'>;
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

/**
 * The session a turn goes to: the key as given (any shape, `agent:main:<label>` included), else the
 * main session of `agentId` (default main). A key of another agent than `agentId` is refused.
 */
function sessionKeyOf(params: { sessionKey?: string; agentId?: string }): string {
  try {
    if (params.sessionKey === undefined) return formatSessionKey({ kind: 'main', agentId: params.agentId ?? 'main' });
    const key = normalizeSessionKey(params.sessionKey);
    const owner = parseSessionKey(key).agentId;
    if (params.agentId !== undefined && params.agentId !== owner) {
      throw invalidRequest(`sessionKey ${key} belongs to agent "${owner}", not agentId "${params.agentId}"`);
    }
    return key;
  } catch (error) {
    if (error instanceof SessionKeyError) throw invalidRequest(`invalid agent params: ${error.message}`);
    throw error;
  }
}

/** `agent` is two-phase: `{status:"accepted"}` at once, then the final result when the turn ends. */
export function registerAgentMethods(router: MethodRouter, deps: AgentMethodsDeps): Disposable {
  const store = new DisposableStore();
  const { runtime } = deps;

  store.add(
    router.handle('agent', async (params, call) => {
      const { run, reused } = runtime.start({
        runId: params.idempotencyKey,
        sessionKey: sessionKeyOf(params),
        message: params.message,
        timeoutMs: params.timeoutMs ?? (params.timeout ? params.timeout * 1000 : undefined),
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
  // "Pause agent": the runtime's switch refuses new turns of every kind while on (agent-pause.ts).
  store.add(router.handle('agent.pause', async (params) => runtime.pause.pause(params.reason)));
  store.add(router.handle('agent.resume', async () => runtime.pause.resume()));
  store.add(router.handle('agent.pause.status', async () => runtime.pause.state));
  if (deps.bus) {
    const bus = deps.bus;
    store.add(runtime.pause.onDidChange((state) => bus.publish('agent.pause.changed', { ...state })));
  }
  return store;
}
