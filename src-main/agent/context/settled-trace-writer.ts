import type { AsyncDisposable } from '../../base/disposable.js';
import type { CacheTraceWriter } from './cache-trace.js';

/**
 * Traces are written in the background (a turn never waits for one); disposing waits for the
 * writes still in flight, so nothing writes into the trace folder after shutdown.
 */
export function createSettledTraceWriter(writer: CacheTraceWriter): CacheTraceWriter & AsyncDisposable {
  const inFlight = new Set<Promise<void>>();
  return {
    record(input) {
      const write = writer.record(input);
      inFlight.add(write);
      void write.catch(() => {}).finally(() => inFlight.delete(write));
      return write;
    },
    async dispose() {
      await Promise.allSettled([...inFlight]);
    },
  };
}
