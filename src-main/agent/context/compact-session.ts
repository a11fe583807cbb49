import type { AgentMessage } from '../messages.js';
import { type CompactionOutcome, type CompactionReason, compactHistory } from './compaction.js';
import type { ContextEngineDeps } from './context-engine.js';
import { flushDurableFacts } from './memory-flush.js';

/**
 * What every engine's `compact` does with its deps: summarise the middle of `messages`, flushing
 * durable facts to today's daily memory file first (unless `flushMemory` is false), in the folder
 * the host names (`memoryFlushTarget`, default the workspace). Engines differ in how they
 * assemble; compaction keeps the same guarantees for all of them.
 */
export async function compactSession(
  messages: readonly AgentMessage[],
  deps: ContextEngineDeps,
  request: { reason: CompactionReason; signal?: AbortSignal },
): Promise<CompactionOutcome> {
  return compactHistory({
    messages,
    summarizer: deps.summarizer,
    reason: request.reason,
    keepRecentTurns: deps.keepRecentTurns,
    now: () => deps.clock.now(),
    newId: deps.newId,
    signal: request.signal,
    beforeSummarize:
      deps.flushMemory === false
        ? undefined
        : async (span) => {
            const target = deps.memoryFlushTarget?.() ?? { dir: deps.workspaceDir };
            if ('skip' in target) {
              deps.log.info('no memory flush before compaction', { reason: target.skip });
              return;
            }
            const flushed = await flushDurableFacts({ workspaceDir: target.dir, clock: deps.clock, messages: span });
            if (flushed.appended.length > 0) {
              deps.log.info('flushed durable facts before compaction', {
                path: flushed.path,
                count: flushed.appended.length,
              });
            }
          },
  });
}
