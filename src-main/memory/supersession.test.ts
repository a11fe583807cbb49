import { describe, expect, it } from 'vitest';
import { memoryRow } from '../testing/memory-row.js';
import { rankHybrid, SAME_SUBJECT_FLOOR, sameSubject, subjectTerms } from './hybrid-ranking.js';
import type { BackendHit } from './memory-backend.js';
import { buildTextQuery, matchedConcepts, queryCoverage, sharedLexicons } from './query-expansion.js';

// Supersession among same-subject notes (issue 13, "every recent-vs-old case right"): a newer
// unit about the same subject as an older one goes first even when it matches the query's
// words much less well — unless the older one matches a query word the newer one lacks.

const row = memoryRow;

const options = {
  vectorWeight: 0.3,
  textWeight: 0.7,
  halfLifeDays: 30,
  mmrLambda: 0.7,
  topK: 5,
  minScore: 0.15,
  now: new Date(2026, 10, 28, 10).getTime(),
};

/** Ranks `hits` for `query` the way the engine does: coverage and matched concepts from the query's concepts. */
function rank(query: string, hits: BackendHit[]): string[] {
  const { concepts } = buildTextQuery(query, sharedLexicons());
  return rankHybrid([], hits, {
    ...options,
    coverage: (candidate) => queryCoverage(concepts, candidate.ftsText),
    matchedConcepts: (candidate) => matchedConcepts(concepts, candidate.ftsText),
  }).map((hit) => hit.row.id);
}

describe('same subject', () => {
  it('reads a unit without its time stamp, category tag, numbers and stop words', () => {
    expect([...subjectTerms('- 17:30 [fact] On-call handover moved to Tuesdays at 11:00')]).toEqual(
      expect.arrayContaining(['on-call', 'handov', 'tuesdai']),
    );
    const terms = subjectTerms('- 17:30 [fact] On-call handover moved to Tuesdays at 11:00');
    for (const noise of ['fact', '17:30', '11:00', 'to', 'at']) expect(terms.has(noise), noise).toBe(false);
  });

  it('holds for a correction and what it corrects, not for notes that share one word', () => {
    const rotation = subjectTerms('On-call rotation is weekly, handover on Mondays at 10:00.');
    const moved = subjectTerms('- 17:30 [fact] On-call handover moved to Tuesdays at 11:00 because of the new standup');
    expect(sameSubject(rotation, moved)).toBe(true);
    const pager = subjectTerms('- 09:15 [other] Called my parents on WeChat for half an hour');
    expect(sameSubject(rotation, pager)).toBe(false);
    expect(sameSubject(new Set(), moved)).toBe(false);
  });
});

describe('supersession in ranking', () => {
  it('puts a daily correction above the MEMORY.md line it corrects, though it matches less well', () => {
    const evergreen: BackendHit = {
      row: row('memory', '', 'On-call rotation is weekly, handover on Mondays at 10:00.'),
      score: 10,
    };
    const correction: BackendHit = {
      row: row(
        'daily',
        '2026-11-12',
        '- 17:30 [fact] On-call handover moved to Tuesdays at 11:00 because of the new standup time',
      ),
      score: 7.5,
    };
    expect(rank('when is the on-call handover', [evergreen, correction])).toEqual(['daily', 'memory']);
  });

  it('does not let a newer note on another subject pass an older one from afar', () => {
    const older: BackendHit = {
      row: row('older', '2026-10-01', '- 10:00 [fact] The on-call handover is on Mondays'),
      score: 10,
    };
    const other: BackendHit = { row: row('other', '2026-11-20', '- 11:00 [other] Pager battery replaced'), score: 5 };
    expect(rank('on-call handover pager', [older, other])).toEqual(['older', 'other']);
  });

  it('keeps an older exact match first when it has a query word the newer same-subject note lacks', () => {
    const older: BackendHit = {
      row: row('older', '2026-09-17', '- 10:00 [fact] Staging database db-staging-2 listens on port 5433'),
      score: 10,
    };
    const newer: BackendHit = {
      row: row('newer', '2026-11-17', '- 10:00 [fact] Staging database db-staging-2 moved to the new cluster'),
      score: 8,
    };
    expect(rank('db-staging-2 port 5433', [older, newer])).toEqual(['older', 'newer']);
    // Asked without the old value, the later word on the same database goes first.
    expect(rank('db-staging-2 staging database', [older, newer])).toEqual(['newer', 'older']);
  });

  it('stops at SAME_SUBJECT_FLOOR: a much weaker same-subject note stays below', () => {
    const older: BackendHit = {
      row: row('older', '2026-09-14', '- 19:10 [fact] rent flat Kreuzberg is €1,140'),
      score: 10,
    };
    const newer: BackendHit = { row: row('newer', '2026-10-20', '- 19:10 [fact] rent flat Kreuzberg'), score: 3 };
    const ranked = rankHybrid([], [older, newer], { ...options, matchedConcepts: () => new Set([0]) });
    expect(ranked[1]!.relevance).toBeLessThan(SAME_SUBJECT_FLOOR * ranked[0]!.relevance);
    expect(ranked.map((hit) => hit.row.id)).toEqual(['older', 'newer']);
  });
});
