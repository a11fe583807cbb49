import { linkedAbortController } from '../base/abort.js';
import type { Clock } from '../base/clock.js';
import { countO200kTokens } from '../base/o200k-tokens.js';
import type { MemoryQueryRewriteConfig } from './memory-config.js';
import type { MemorySearchResult } from './memory-engine.js';

/**
 * Query rewrite (opt-in, `memory.queryRewrite`): when a model is configured, it turns a memory
 * query into a few alternative wordings — synonyms and related terms, and the query in English
 * and Chinese — so a note written in other words or the other language is found. One small call
 * per distinct query text (cached), never more than `timeoutMs`; any failure means the search
 * runs on the person's words alone. Every call's tokens are counted (`usage()`).
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export interface QueryRewriteDeps {
  config: MemoryQueryRewriteConfig;
  clock: Clock;
  /**
   * One short completion. `usage` is what the provider reported; without it the tokens are
   * counted here with the o200k tokenizer (and marked estimated).
   */
  complete(prompt: string, signal: AbortSignal): Promise<{ text: string; usage?: TokenUsage }>;
  /** Each call's tokens, as it happens (the host logs it). */
  onUsage?(usage: TokenUsage & { estimated: boolean }, query: string): void;
}

export interface QueryRewriteUsage {
  calls: number;
  cacheHits: number;
  failures: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Calls whose tokens were counted here because the provider did not report them. */
  estimatedCalls: number;
}

export interface QueryRewriter {
  /** Alternative queries (never the query itself); empty when rewriting is off or failed. */
  rewrite(query: string, signal?: AbortSignal): Promise<string[]>;
  usage(): QueryRewriteUsage;
}

const MAX_VARIANTS = 4;
const LANGUAGE_NAMES = { en: 'English', zh: 'Chinese (简体中文)' } as const;

export function rewritePrompt(query: string, languages: readonly ('en' | 'zh')[]): string {
  const names = languages.map((language) => LANGUAGE_NAMES[language]).join(' and ');
  return [
    'You help search a person’s own notes. Rewrite the search query below into at most 4 alternative search queries:',
    `synonyms and closely related words for its key terms, and the query translated into ${names}.`,
    'Keep names, numbers, code identifiers and file names exactly as written.',
    'Answer with the queries only, one per line, no numbering, no explanations.',
    '',
    `Query: ${query}`,
  ].join('\n');
}

/** The model's answer as queries: bullets and numbering stripped, the original and duplicates dropped. */
export function parseRewrites(answer: string, query: string): string[] {
  const seen = new Set([normalise(query)]);
  const out: string[] = [];
  for (const raw of answer.split('\n')) {
    const line = raw
      .replace(/^\s*(?:[-*•]|\d+[.)]|query\s*\d*\s*:)\s*/i, '')
      .replace(/^["“'](.*)["”']$/, '$1')
      .trim();
    if (!line || line.length > 300 || seen.has(normalise(line))) continue;
    seen.add(normalise(line));
    out.push(line);
    if (out.length >= MAX_VARIANTS) break;
  }
  return out;
}

export function createQueryRewriter(deps: QueryRewriteDeps): QueryRewriter {
  // Least recently used first: a Map keeps insertion order, and a hit is re-inserted.
  const cache = new Map<string, string[]>();
  const inflight = new Map<string, Promise<string[]>>();
  const totals: QueryRewriteUsage = {
    calls: 0,
    cacheHits: 0,
    failures: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    estimatedCalls: 0,
  };

  const call = async (query: string, signal?: AbortSignal): Promise<string[]> => {
    const prompt = rewritePrompt(query, deps.config.languages);
    const { controller, dispose: unlink } = linkedAbortController(signal);
    const abort = () => controller.abort();
    const timer = deps.clock.setTimeout(abort, deps.config.timeoutMs);
    totals.calls++;
    try {
      const answer = await deps.complete(prompt, controller.signal);
      const usage = answer.usage ?? {
        inputTokens: countO200kTokens(prompt),
        outputTokens: countO200kTokens(answer.text),
        cachedInputTokens: 0,
      };
      totals.inputTokens += usage.inputTokens;
      totals.outputTokens += usage.outputTokens;
      totals.cachedInputTokens += usage.cachedInputTokens;
      if (!answer.usage) totals.estimatedCalls++;
      deps.onUsage?.({ ...usage, estimated: !answer.usage }, query);
      return parseRewrites(answer.text, query);
    } finally {
      timer.dispose();
      unlink();
    }
  };

  return {
    async rewrite(query, signal) {
      const text = query.trim();
      if (!deps.config.enabled || !text) return [];
      const key = `${deps.config.languages.join(',')}\u0000${normalise(text)}`;
      const cached = cache.get(key);
      if (cached) {
        totals.cacheHits++;
        cache.delete(key);
        cache.set(key, cached);
        return cached;
      }
      // The same query asked twice at once (recall and a tool call) is one model call.
      let pending = inflight.get(key);
      if (!pending) {
        pending = call(text, signal).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      try {
        const variants = await pending;
        if (deps.config.cacheSize > 0) {
          cache.set(key, variants);
          while (cache.size > deps.config.cacheSize) cache.delete(cache.keys().next().value!);
        }
        return variants;
      } catch {
        // Not cached: the next search may find the model reachable again.
        totals.failures++;
        return [];
      }
    },
    usage: () => ({ ...totals }),
  };
}

export interface AgentRewritersDeps {
  config: MemoryQueryRewriteConfig;
  clock: Clock;
  /** The model an agent's rewrites use: `config.model` when it names one, else the agent's primary. */
  primaryModel(agentId: string): string | undefined;
  /** One short completion; `onUsage` receives the provider's token counts when it reports them. */
  complete(
    modelRef: string,
    prompt: string,
    signal: AbortSignal,
    onUsage: (usage: TokenUsage) => void,
  ): Promise<string>;
  onUsage?(
    usage: TokenUsage & { estimated: boolean },
    context: { agentId: string; model: string; query: string },
  ): void;
}

/**
 * Rewriters for every agent, one per model (agents on the same model share its cache).
 * `forAgent` is undefined while rewriting is off or the agent has no model.
 */
export function createAgentRewriters(deps: AgentRewritersDeps) {
  const byModel = new Map<string, QueryRewriter>();
  const modelOf = (agentId: string) =>
    typeof deps.config.model === 'string' ? deps.config.model : deps.primaryModel(agentId);
  return {
    forAgent(agentId: string): QueryRewriter | undefined {
      if (!deps.config.enabled) return undefined;
      const model = modelOf(agentId);
      if (!model) return undefined;
      let rewriter = byModel.get(model);
      if (!rewriter) {
        rewriter = createQueryRewriter({
          config: deps.config,
          clock: deps.clock,
          complete: async (prompt, signal) => {
            let usage: TokenUsage | undefined;
            const text = await deps.complete(model, prompt, signal, (reported) => {
              usage = reported;
            });
            return { text, usage };
          },
          onUsage: (usage, query) => deps.onUsage?.(usage, { agentId, model, query }),
        });
        byModel.set(model, rewriter);
      }
      return rewriter;
    },
    /** Every rewrite call so far, summed over models: what `memory.status` reports. */
    usage(): QueryRewriteUsage & { enabled: boolean } {
      const sum: QueryRewriteUsage = {
        calls: 0,
        cacheHits: 0,
        failures: 0,
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 0,
        estimatedCalls: 0,
      };
      for (const rewriter of byModel.values())
        for (const [key, value] of Object.entries(rewriter.usage()) as [keyof QueryRewriteUsage, number][])
          sum[key] += value;
      return { enabled: deps.config.enabled, ...sum };
    },
  };
}

/** Hits of the rewritten queries count a little less than the person's own words. */
const VARIANT_WEIGHT = 0.9;

/**
 * Searches the query and its rewrites and merges the hits: each chunk once, at its best score
 * (a rewrite's score weighted by 0.9, so an exact match of what was typed stays first), the top `k`.
 */
export async function searchRewritten(
  query: string,
  variants: readonly string[],
  k: number,
  search: (query: string, original: boolean) => Promise<MemorySearchResult[]>,
): Promise<MemorySearchResult[]> {
  // Nothing to merge: the engine's own order (MMR) stands.
  if (variants.length === 0) return search(query, true);
  const batches = await Promise.all([
    search(query, true),
    ...variants.map((variant) => search(variant, false).catch(() => [] as MemorySearchResult[])),
  ]);
  const best = new Map<string, MemorySearchResult>();
  batches.forEach((hits, index) => {
    const weight = index === 0 ? 1 : VARIANT_WEIGHT;
    for (const hit of hits) {
      const key = `${hit.path}\u0000${hit.startLine}`;
      const score = hit.score * weight;
      const known = best.get(key);
      if (!known || score > known.score) best.set(key, { ...hit, score });
    }
  });
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, k);
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
