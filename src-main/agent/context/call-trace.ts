import type { Logger } from '../../base/logger.js';
import type { CacheTraceSnapshot, CacheTraceStage, CacheTraceWriter } from './cache-trace.js';

/** One LLM call's trace: the runner calls `stage(...)` at each of the seven points. */
export interface CallTrace {
  stage(stage: CacheTraceStage, snapshot: CacheTraceSnapshot): void;
  /** Resolves when every record so far is on disk (tests, shutdown). */
  flush(): Promise<void>;
}

/**
 * Tracing is diagnostics: it must never slow or fail a turn. Records are written in the
 * background and a write error is logged once per call, not thrown.
 */
export function createCallTrace(input: {
  writer: CacheTraceWriter;
  sessionKey: string;
  callId: string;
  log: Logger;
}): CallTrace {
  let pending: Promise<void> = Promise.resolve();
  let warned = false;
  return {
    stage(stage, snapshot) {
      const write = input.writer
        .record({ sessionKey: input.sessionKey, callId: input.callId, stage, snapshot })
        .catch((error: unknown) => {
          if (warned) return;
          warned = true;
          input.log.warn('cache trace write failed', {
            callId: input.callId,
            error: error instanceof Error ? error.message : String(error),
          });
        });
      pending = pending.then(() => write);
    },
    flush: () => pending,
  };
}
