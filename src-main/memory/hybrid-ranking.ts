import { dot } from './embedders/embedder.js';
import type { BackendHit, MemoryChunkRow } from './memory-backend.js';

const DAY_MS = 86_400_000;

export interface RankingOptions {
  vectorWeight: number;
  textWeight: number;
  halfLifeDays: number;
  mmrLambda: number;
  topK: number;
  minScore: number;
  /** Epoch ms "now" for temporal decay. */
  now: number;
}

export interface RankedHit {
  row: MemoryChunkRow;
  /** Final score after fusion and decay (what top-K and minScore see). */
  score: number;
  /** Cosine similarity, 0..1. */
  vectorScore: number;
  /** BM25 normalised to 0..1 against the best text hit of this query. */
  textScore: number;
  /** e^(−λ·age) for dated notes, 1 for evergreen files. */
  decay: number;
}

/** e^(−λ·age), λ = ln2 / halfLife: a note loses half its weight every half-life; evergreen files never decay. */
export function temporalDecay(date: string, now: number, halfLifeDays: number): number {
  if (!date) return 1;
  const at = Date.parse(`${date}T12:00:00`);
  if (Number.isNaN(at)) return 1;
  const ageDays = Math.max(0, (now - at) / DAY_MS);
  return Math.exp((-Math.LN2 / halfLifeDays) * ageDays);
}

/**
 * Fuses vector and BM25 candidates: vector similarity is already 0..1; BM25 is unbounded, so
 * it is divided by the best BM25 of the query (the best lexical match counts fully, the rest
 * in proportion). Then decay, the minimum score, and MMR for diversity.
 */
export function rankHybrid(vectorHits: BackendHit[], textHits: BackendHit[], options: RankingOptions): RankedHit[] {
  const byId = new Map<string, RankedHit>();
  const entry = (hit: BackendHit) => {
    let ranked = byId.get(hit.row.id);
    if (!ranked) {
      ranked = { row: hit.row, score: 0, vectorScore: 0, textScore: 0, decay: 1 };
      byId.set(hit.row.id, ranked);
    }
    if (ranked.row.vector.length === 0 && hit.row.vector.length > 0) ranked.row = hit.row;
    return ranked;
  };
  for (const hit of vectorHits) entry(hit).vectorScore = Math.max(0, Math.min(1, hit.score));
  const bestText = Math.max(0, ...textHits.map((hit) => hit.score));
  for (const hit of textHits) entry(hit).textScore = bestText > 0 ? hit.score / bestText : 0;

  const candidates: RankedHit[] = [];
  for (const ranked of byId.values()) {
    ranked.decay = temporalDecay(ranked.row.date, options.now, options.halfLifeDays);
    const fused = options.vectorWeight * ranked.vectorScore + options.textWeight * ranked.textScore;
    ranked.score = fused * ranked.decay;
    if (ranked.score >= options.minScore) candidates.push(ranked);
  }
  candidates.sort((a, b) => b.score - a.score);
  return maximalMarginalRelevance(candidates, options.mmrLambda, options.topK);
}

/** MMR: each pick maximises λ·relevance − (1−λ)·(similarity to what is already picked). */
export function maximalMarginalRelevance(candidates: RankedHit[], lambda: number, k: number): RankedHit[] {
  const picked: RankedHit[] = [];
  const pool = [...candidates];
  while (picked.length < k && pool.length > 0) {
    let bestIndex = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      const candidate = pool[i]!;
      let redundancy = 0;
      for (const chosen of picked) redundancy = Math.max(redundancy, similarity(candidate.row, chosen.row));
      const value = lambda * candidate.score - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = i;
      }
    }
    picked.push(pool.splice(bestIndex, 1)[0]!);
  }
  return picked;
}

function similarity(a: MemoryChunkRow, b: MemoryChunkRow): number {
  if (a.vector.length > 0 && a.vector.length === b.vector.length) return dot(a.vector, b.vector);
  return a.text === b.text ? 1 : 0;
}
