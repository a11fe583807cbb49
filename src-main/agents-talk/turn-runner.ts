import type { AgentRuntime, RunRecord } from '../agent/index.js';

/** The part of the agent runtime another session's turn is started, awaited and aborted through. */
export type TurnRunner = Pick<AgentRuntime, 'start' | 'wait' | 'abort'>;

export interface RunWait {
  run: RunRecord | undefined;
  /** It outlived the wait and was aborted. */
  timedOut: boolean;
}

/**
 * Waits for a started turn: `signal` (the asking turn's) aborts it too, and a turn that outlives
 * `timeoutMs` is aborted, so a lane that never frees cannot hold the one waiting forever.
 */
export async function waitForRun(
  runner: TurnRunner,
  run: RunRecord,
  options: { signal?: AbortSignal; timeoutMs: number },
): Promise<RunWait> {
  const abort = () => runner.abort(run.sessionKey, run.runId);
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const ended = await runner.wait(run.runId, options.timeoutMs);
    if (ended?.status !== 'running') return { run: ended, timedOut: false };
    abort();
    return { run: await runner.wait(run.runId), timedOut: true };
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
}

/** Starts a turn in another session and waits for it (start errors reject). */
export async function runAndWait(
  runner: TurnRunner,
  input: Parameters<AgentRuntime['start']>[0],
  options: { signal?: AbortSignal; timeoutMs: number },
): Promise<RunWait> {
  const { run } = runner.start(input);
  return waitForRun(runner, run, options);
}
