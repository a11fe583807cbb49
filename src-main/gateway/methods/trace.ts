import { showCacheTrace } from '../../agent/context/index.js';
import type { Disposable } from '../../base/index.js';
import { invalidRequest } from '../../protocol/index.js';
import { normalizeSessionKey, SessionKeyError } from '../../sessions/index.js';
import type { MethodRouter } from '../method-router.js';

export interface TraceMethodsDeps {
  /** `paths.cacheTraceDir` (HEARTH_HOME/state/cache-trace). */
  cacheTraceDir: string;
}

/** `trace.show` (operator.read): sizes, hashes and cache-miss explanations; never content. */
export function registerTraceMethods(router: MethodRouter, deps: TraceMethodsDeps): Disposable {
  return router.handle('trace.show', async (params) => {
    let sessionKey: string;
    try {
      sessionKey = normalizeSessionKey(params.sessionKey);
    } catch (error) {
      if (error instanceof SessionKeyError)
        throw invalidRequest(`invalid trace.show params: sessionKey: ${error.message}`);
      throw error;
    }
    return showCacheTrace(deps.cacheTraceDir, sessionKey, params.limit);
  });
}
