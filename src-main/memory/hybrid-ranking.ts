import { statesChange } from './cross-language.js';
import { dot } from './embedders/embedder.js';
import type { BackendHit, MemoryChunkRow } from './memory-backend.js';
import { analyzeText, isStopWord } from './text-tokens.js';

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
  /** The query's embedding, to score text hits the vector search did not return. */
  queryVector?: Float32Array;
  /** How much of the query a row covers, 0..1 (`queryCoverage`); blended into the text score. */
  coverage?(row: MemoryChunkRow): number;
  /** Which of the query's concepts a row matches (`matchedConcepts`): a newer note supersedes only one it matches as fully. */
  matchedConcepts?(row: MemoryChunkRow): ReadonlySet<number>;
  /** Whether two units in different languages are about the same subject (`crossLanguageSubject`). */
  crossLanguageSubject?(a: MemoryChunkRow, b: MemoryChunkRow): boolean;
}

export interface RankedHit {
  row: MemoryChunkRow;
  /** Final score: relevance × the recency factor (what top-K sees). */
  score: number;
  /** vectorWeight·vector + textWeight·text, before recency (what minScore sees). */
  relevance: number;
  /** Cosine similarity, 0..1. */
  vectorScore: number;
  /** BM25 normalised to 0..1 against the best text hit of this query, averaged with query coverage. */
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
 * How much recency can move a result: a note's relevance is multiplied by
 * 1 − RECENCY_SHARE·(1 − decay), so today's note keeps all of it and a very old one keeps 80 %.
 * Recency reorders comparable matches (a newer note that says the same thing wins) but never
 * hides a strong old match behind a weak recent one.
 */
export const RECENCY_SHARE = 0.2;

export function recencyFactor(decay: number): number {
  return 1 - RECENCY_SHARE * (1 - decay);
}

/**
 * Fuses vector and BM25 candidates: vector similarity is already 0..1; BM25 is unbounded, so
 * it is divided by the best BM25 of the query (the best lexical match counts fully, the rest
 * in proportion). `minScore` drops noise by relevance alone — a note's age never removes it —
 * then recency reorders, and MMR picks a diverse top K.
 */
export function rankHybrid(vectorHits: BackendHit[], textHits: BackendHit[], options: RankingOptions): RankedHit[] {
  const byId = new Map<string, RankedHit>();
  const entry = (hit: BackendHit) => {
    let ranked = byId.get(hit.row.id);
    if (!ranked) {
      ranked = { row: hit.row, score: 0, relevance: 0, vectorScore: 0, textScore: 0, decay: 1 };
      byId.set(hit.row.id, ranked);
    }
    if (ranked.row.vector.length === 0 && hit.row.vector.length > 0) ranked.row = hit.row;
    return ranked;
  };
  for (const hit of vectorHits) entry(hit).vectorScore = Math.max(0, Math.min(1, hit.score));
  const fromVectors = new Set(vectorHits.map((hit) => hit.row.id));
  const bestText = Math.max(0, ...textHits.map((hit) => hit.score));
  for (const hit of textHits) entry(hit).textScore = bestText > 0 ? hit.score / bestText : 0;
  // A text hit the vector search did not return still has a similarity to the query: without
  // it, every lexical match outside the vector top-N would count as unrelated in meaning.
  const query = options.queryVector;
  if (query)
    for (const hit of textHits) {
      const ranked = byId.get(hit.row.id)!;
      if (!fromVectors.has(hit.row.id) && ranked.row.vector.length === query.length)
        ranked.vectorScore = Math.max(0, Math.min(1, dot(query, ranked.row.vector)));
    }

  const candidates: RankedHit[] = [];
  for (const ranked of byId.values()) {
    ranked.decay = temporalDecay(ranked.row.date, options.now, options.halfLifeDays);
    if (options.coverage) ranked.textScore = Math.sqrt(ranked.textScore * options.coverage(ranked.row));
    ranked.relevance = options.vectorWeight * ranked.vectorScore + options.textWeight * ranked.textScore;
    ranked.score = ranked.relevance * recencyFactor(ranked.decay);
    if (ranked.relevance >= options.minScore && ranked.relevance > 0) candidates.push(ranked);
  }
  candidates.sort((a, b) => b.score - a.score);
  let ordered = newerFirst(candidates, options.matchedConcepts);
  if (options.crossLanguageSubject)
    ordered = crossLanguageFirst(ordered, options.crossLanguageSubject, options.matchedConcepts);
  return maximalMarginalRelevance(ordered, options.mmrLambda, options.topK);
}

/**
 * Among comparable matches the newer note goes first: a dated note moves up past older dated
 * notes whose relevance is at most COMPARABLE_MARGIN above its own. Proportional decay alone
 * cannot do this for two notes that are both weeks old (their decays differ by a few
 * percent), yet "the rent is €1,580" must beat "the rent is €1,140" from a month before.
 * An undated file (MEMORY.md, USER.md) counts as older than any dated note here — a daily note
 * that restates one of its facts comparably well is the later word — but never passes one.
 *
 * Two units about the same subject (`sameSubject`) are a correction and what it corrects, so
 * the newer one goes first even when it matches the query's words much less well ("routekit
 * now solves Hamburg in 7 s" after "1,200 stops solve in 38 s"), down to SAME_SUBJECT_FLOOR of
 * the older one's relevance — and that holds past MEMORY.md / USER.md lines too: a daily note
 * that corrects one of their facts is the later word. Notes on other subjects keep the margins.
 */
export const COMPARABLE_MARGIN = 0.4;
/** Passing an undated file takes a closer match: MEMORY.md is where a person keeps what stays true. */
export const EVERGREEN_MARGIN = 0.1;
/** How weak, relative to the older unit, a same-subject newer unit may be and still go first. */
export const SAME_SUBJECT_FLOOR = 0.5;

export function newerFirst(
  sorted: RankedHit[],
  matchedConcepts?: (row: MemoryChunkRow) => ReadonlySet<number>,
): RankedHit[] {
  const matches = new Map<RankedHit, ReadonlySet<number>>();
  const matchesOf = (hit: RankedHit) => {
    let found = matches.get(hit);
    if (!found) {
      found = matchedConcepts?.(hit.row) ?? new Set<number>();
      matches.set(hit, found);
    }
    return found;
  };
  // The older unit matching a query word the newer one lacks is the more exact answer to this
  // question (the old port, the old fee asked by value): age never takes that from it.
  const answersAsFully = (newer: RankedHit, older: RankedHit) => {
    if (!matchedConcepts) return true;
    const have = matchesOf(newer);
    for (const concept of matchesOf(older)) if (!have.has(concept)) return false;
    return true;
  };
  const subjects = new Map<RankedHit, Set<string>>();
  const subjectOf = (hit: RankedHit) => {
    let terms = subjects.get(hit);
    if (!terms) {
      terms = subjectTerms(hit.row.text);
      subjects.set(hit, terms);
    }
    return terms;
  };
  const out: RankedHit[] = [];
  for (const hit of sorted) {
    let at = out.length;
    while (at > 0) {
      const above = out[at - 1]!;
      if (!hit.row.date || (above.row.date && above.row.date >= hit.row.date)) break;
      const supersedes =
        hit.relevance >= SAME_SUBJECT_FLOOR * above.relevance &&
        answersAsFully(hit, above) &&
        sameSubject(subjectOf(hit), subjectOf(above));
      const margin = above.row.date ? COMPARABLE_MARGIN : EVERGREEN_MARGIN;
      if (!supersedes && hit.relevance * (1 + margin) < above.relevance) break;
      at--;
    }
    if (at < out.length) hit.score = Math.max(hit.score, out[at]!.score);
    out.splice(at, 0, hit);
  }
  return out;
}

/**
 * A newer unit in another language that is about the same subject as an older one (a Chinese
 * note correcting an English one) goes just above it, however far below it ranked. The query is
 * in one language, so the other-language unit meets only those of its words that translate (at
 * the translation's credit, often one word of three): neither the relevance floor nor "answers
 * every word the older one does" of same-language supersession can hold across languages. What
 * it must have instead: words saying that something changed (`statesChange`), a subject the
 * dictionary links to the older unit's (`crossLanguageSubject`: two words or more, one a name),
 * and at least one query word in common with it. Only dated notes are passed this way: a line
 * of MEMORY.md or USER.md is what the person keeps as true, and a translated link is too weak
 * to overrule it.
 */
export function crossLanguageFirst(
  ordered: RankedHit[],
  sameSubject: (a: MemoryChunkRow, b: MemoryChunkRow) => boolean,
  matchedConcepts?: (row: MemoryChunkRow) => ReadonlySet<number>,
): RankedHit[] {
  const out = [...ordered];
  const sharesQueryWord = (a: RankedHit, b: RankedHit) => {
    if (!matchedConcepts) return true;
    const other = matchedConcepts(b.row);
    for (const concept of matchedConcepts(a.row)) if (other.has(concept)) return true;
    return false;
  };
  // One correction per older unit: several newer units linked to it are a topic, not a correction.
  const corrected = new Set<RankedHit>();
  for (const hit of ordered) {
    if (!hit.row.date || !statesChange(hit.row.text)) continue;
    const at = out.indexOf(hit);
    const target = out.findIndex(
      (above, index) =>
        index < at &&
        !corrected.has(above) &&
        above.row.date !== '' &&
        above.row.date < hit.row.date &&
        sameSubject(hit.row, above.row) &&
        sharesQueryWord(hit, above),
    );
    if (target < 0) continue;
    corrected.add(out[target]!);
    out.splice(at, 1);
    hit.score = Math.max(hit.score, out[target]!.score);
    out.splice(target, 0, hit);
  }
  return out;
}

/**
 * A unit's subject: its content terms as the index makes them (stems, identifiers, Chinese
 * words), without what every daily bullet has — the time stamp, the `[category]` tag, numbers,
 * stop words. Numbers are left out on purpose: a correction changes them.
 */
export function subjectTerms(text: string): Set<string> {
  const body = text.replace(/^\s*(?:[-*+]\s+)?(?:\d{1,2}:\d{2}\s+)?(?:\[[^\]]*\]\s*)?/, '');
  const terms = new Set<string>();
  for (const term of analyzeText(body).primary)
    if (term.length > 1 && !/\d/.test(term) && !isStopWord(term)) terms.add(term);
  return terms;
}

/**
 * Two units are about the same subject when at least SAME_SUBJECT_SHARE of the smaller one's
 * subject terms — and at least two of them — are also the other's: "On-call handover moved to
 * Tuesdays" and "On-call rotation is weekly, handover on Mondays" share on-call, call, handov.
 * The test reads the units, not the query, so it holds for any wording of the question.
 */
export const SAME_SUBJECT_SHARE = 0.3;

export function sameSubject(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return false;
  let shared = 0;
  for (const term of small) if (large.has(term)) shared++;
  return shared >= 2 && shared >= SAME_SUBJECT_SHARE * small.size;
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

/**
 * Redundancy for MMR: only near-duplicates count (cosine above REDUNDANT_FROM, scaled to 0..1).
 * Notes about the same topic that say different things — the old and the new rent — are both
 * answers; penalising the second for resembling the first would bury the newer one.
 */
const REDUNDANT_FROM = 0.6;

function similarity(a: MemoryChunkRow, b: MemoryChunkRow): number {
  if (a.text === b.text) return 1;
  const resemblance =
    a.vector.length > 0 && a.vector.length === b.vector.length ? dot(a.vector, b.vector) : termOverlap(a, b);
  return Math.max(0, resemblance - REDUNDANT_FROM) / (1 - REDUNDANT_FROM);
}

/**
 * Jaccard overlap of two chunks' index terms: the near-duplicate test where a vector is not at
 * hand (a backend may return vector hits without their vectors, which are costly to read back).
 */
function termOverlap(a: MemoryChunkRow, b: MemoryChunkRow): number {
  const left = new Set(a.ftsText.split(/\s+/).filter(Boolean));
  const right = new Set(b.ftsText.split(/\s+/).filter(Boolean));
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const term of left) if (right.has(term)) shared++;
  return shared / (left.size + right.size - shared);
}
