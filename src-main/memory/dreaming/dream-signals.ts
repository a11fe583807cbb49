import { searchTerms } from '../text-tokens.js';

const DAY_MS = 86_400_000;

/** A recalled note and everything Dreaming knows about it. */
export interface DreamCandidate {
  key: string;
  text: string;
  path: string;
  line: number;
  recalls: number;
  uniqueQueries: number;
  avgScore: number;
  /** Distinct days it was recalled on. */
  days: number;
  lastRecallDay: string;
  /** Concept tags it shares with other recent notes. */
  tags: string[];
  lightSeen: boolean;
  remConfidence?: number;
}

export interface DeepSignals {
  frequency: number;
  relevance: number;
  diversity: number;
  recency: number;
  consolidation: number;
  conceptual: number;
  lightBoost: number;
  remBoost: number;
  score: number;
}

export const DEEP_GATES = { minScore: 0.75, minRecalls: 3, minUniqueQueries: 2 } as const;
export const REM_KEEP = 0.45;
export const REM_DEDUPE = 0.88;
export const REM_TOP = 3;

export function noteKey(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function conceptTags(text: string): string[] {
  return [...new Set(searchTerms(text).filter((term) => term.length > 2 || /[^\x00-\x7f]/.test(term)))];
}

/** REM confidence = 0.45·avgScore + 0.25·log1p(recalls)/log1p(6) + 0.20·min(1, days/3) + 0.10·min(1, tags/6). */
export function remConfidence(candidate: DreamCandidate): number {
  return (
    0.45 * clamp(candidate.avgScore) +
    (0.25 * Math.log1p(candidate.recalls)) / Math.log1p(6) +
    0.2 * Math.min(1, candidate.days / 3) +
    0.1 * Math.min(1, candidate.tags.length / 6)
  );
}

/**
 * Deep score = 0.24 frequency + 0.30 relevance + 0.15 diversity + 0.15 recency (half-life 14 d)
 * + 0.10 consolidation + 0.06 conceptual + light boost ≤ 0.06 + REM boost ≤ 0.09.
 */
export function deepSignals(candidate: DreamCandidate, now: number): DeepSignals {
  const frequency = Math.min(1, Math.log1p(candidate.recalls) / Math.log1p(10));
  const relevance = clamp(candidate.avgScore);
  const diversity = Math.min(1, candidate.uniqueQueries / 4);
  const ageDays = Math.max(0, (now - Date.parse(`${candidate.lastRecallDay}T12:00:00`)) / DAY_MS);
  const recency = Number.isFinite(ageDays) ? 0.5 ** (ageDays / 14) : 0;
  const consolidation = Math.min(1, candidate.days / 3);
  const conceptual = Math.min(1, candidate.tags.length / 6);
  const lightBoost = candidate.lightSeen ? 0.06 : 0;
  const remBoost = candidate.remConfidence !== undefined ? 0.09 * clamp(candidate.remConfidence) : 0;
  const score =
    0.24 * frequency +
    0.3 * relevance +
    0.15 * diversity +
    0.15 * recency +
    0.1 * consolidation +
    0.06 * conceptual +
    lightBoost +
    remBoost;
  return { frequency, relevance, diversity, recency, consolidation, conceptual, lightBoost, remBoost, score };
}

export function gateFailures(candidate: DreamCandidate, signals: DeepSignals): string[] {
  const failures: string[] = [];
  if (signals.score < DEEP_GATES.minScore) failures.push(`score ${signals.score.toFixed(3)} < ${DEEP_GATES.minScore}`);
  if (candidate.recalls < DEEP_GATES.minRecalls)
    failures.push(`recalls ${candidate.recalls} < ${DEEP_GATES.minRecalls}`);
  if (candidate.uniqueQueries < DEEP_GATES.minUniqueQueries)
    failures.push(`unique queries ${candidate.uniqueQueries} < ${DEEP_GATES.minUniqueQueries}`);
  return failures;
}

function clamp(value: number): number {
  return Math.max(0, Math.min(1, value));
}
