import { linkedAbortController } from '../base/abort.js';
import type { Clock } from '../base/clock.js';
import type { MemoryRecallConfig, RecallStyle } from './memory-config.js';
import type { MemoryEngine, MemorySearchResult } from './memory-engine.js';
import type { MemoryScope } from './memory-scope.js';
import { bestLine } from './note-lines.js';
import { searchRewritten } from './query-rewrite.js';

export interface RecallRequest {
  scope: MemoryScope;
  message: string;
  /** Earlier user messages of the session, oldest first (for `recent` and `full`). */
  history?: string[];
  signal?: AbortSignal;
}

export interface ActiveRecallDeps {
  engine: MemoryEngine;
  config: MemoryRecallConfig;
  clock: Clock;
  /** Alternative wordings of the query (`memory.queryRewrite`); searched too, merged. Must not throw. */
  rewrite?(query: string, signal: AbortSignal): Promise<string[]>;
  /** The model path, run only when the cheap path finds nothing strong. Returns a summary or nothing. */
  modelRecall?(
    request: RecallRequest,
    candidates: MemorySearchResult[],
    signal: AbortSignal,
  ): Promise<string | undefined>;
}

/** How strong a hit must be, and how many to use, per style. */
const STYLES: Record<RecallStyle, { strong: number; take: number; only?: string }> = {
  balanced: { strong: 0.45, take: 2 },
  strict: { strong: 0.6, take: 1 },
  contextual: { strong: 0.4, take: 3 },
  'recall-heavy': { strong: 0.3, take: 3 },
  'precision-heavy': { strong: 0.55, take: 1 },
  'preference-only': { strong: 0.35, take: 2, only: 'preference' },
};

/**
 * Before a turn: search memory for the current message and, when something strong turns up,
 * return a ≤ 220-char summary for `UserMessage.hiddenPrefix`. Never throws and never waits
 * past the timeout: a slow or failing recall just means no prefix this turn.
 */
export function createActiveRecall(deps: ActiveRecallDeps) {
  const cache = new Map<string, { at: number; value: string | undefined }>();

  const query = (request: RecallRequest): string => {
    const history = request.history ?? [];
    if (deps.config.mode === 'recent') return [...history.slice(-2), request.message].join(' ');
    if (deps.config.mode === 'full') return [...history, request.message].join(' ').slice(-2000);
    return request.message;
  };

  const run = async (request: RecallRequest, signal: AbortSignal): Promise<string | undefined> => {
    const style = STYLES[deps.config.style];
    const text = query(request).trim();
    if (!text) return undefined;
    const variants = deps.rewrite ? await deps.rewrite(text, signal).catch(() => []) : [];
    // A low floor: the model path reads weak hits too (with the hashed embedder's text-led
    // weights a note related only in meaning scores a few hundredths).
    const hits = await searchRewritten(text, variants, 6, (query, original) =>
      deps.engine.search(query, { scope: request.scope, k: 6, minScore: 0.02, signal, record: original }),
    );
    const usable = style.only ? hits.filter((hit) => hit.category === style.only) : hits;
    const strong = usable.filter((hit) => hit.score >= style.strong).slice(0, style.take);
    if (strong.length > 0) return summarise(strong, text, deps.config.maxChars);
    if (!deps.modelRecall || usable.length === 0) return undefined;
    const summary = await deps.modelRecall(request, usable, signal);
    return summary ? clip(summary.replace(/\s+/g, ' ').trim(), deps.config.maxChars) : undefined;
  };

  return {
    async recall(request: RecallRequest): Promise<string | undefined> {
      if (!deps.config.enabled) return undefined;
      const key = `${request.scope.id}\u0000${deps.config.mode}\u0000${query(request)}`;
      const now = deps.clock.now();
      const cached = cache.get(key);
      if (cached && now - cached.at < deps.config.cacheMs) return cached.value;
      const { controller, dispose: unlink } = linkedAbortController(request.signal);
      let timer: { dispose(): void } | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        timer = deps.clock.setTimeout(() => {
          controller.abort();
          resolve(undefined);
        }, deps.config.timeoutMs);
      });
      try {
        const value = await Promise.race([run(request, controller.signal).catch(() => undefined), timeout]);
        cache.set(key, { at: now, value });
        return value;
      } finally {
        timer?.dispose();
        unlink();
      }
    },
  };
}

function summarise(hits: MemorySearchResult[], query: string, maxChars: number): string {
  // The line of each chunk that matches the message best, not the whole chunk: 220 chars go fast.
  const notes = hits.map((hit) =>
    (bestLine(hit.snippet, hit.startLine, query).text || hit.snippet).replace(/\s+/g, ' ').trim(),
  );
  return clip(`Memory: ${[...new Set(notes)].join(' | ')}`, maxChars);
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}
