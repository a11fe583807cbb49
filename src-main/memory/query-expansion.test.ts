import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryRow } from '../testing/memory-row.js';
import { rankHybrid } from './hybrid-ranking.js';
import { editDistance, IndexVocabulary } from './index-vocabulary.js';
import type { BackendHit } from './memory-backend.js';
import { buildTextQuery, CLAUSE_BOOST, queryCoverage, sharedLexicons } from './query-expansion.js';
import { toFtsText } from './text-tokens.js';

function vocabularyOf(...notes: string[]): IndexVocabulary {
  const vocabulary = new IndexVocabulary(tmpdir());
  vocabulary.clear();
  for (const note of notes) vocabulary.addChunk(toFtsText(note), note);
  return vocabulary;
}

const clause = (query: ReturnType<typeof buildTextQuery>, boost: number) =>
  query.clauses.find((entry) => entry.boost === boost)?.terms ?? [];

describe('query expansion', () => {
  it('keeps the words as typed at full weight and adds WordNet synonyms below them, only those the index has', () => {
    const vocabulary = vocabularyOf('The physician at the clinic is Dr. Brandt', 'Bought a new car');
    const query = buildTextQuery('doctor', sharedLexicons(), { vocabulary });
    expect(clause(query, CLAUSE_BOOST.exact)).toEqual(['doctor']);
    expect(clause(query, CLAUSE_BOOST.synonym)).toEqual(['physician', 'dr']);
    // Without a vocabulary every synonym is sent (nothing to prune against).
    expect(clause(buildTextQuery('doctor', sharedLexicons()), CLAUSE_BOOST.synonym).length).toBeGreaterThan(2);
  });

  it('reaches a note that says it in other words through the definition of the word, weighted least', () => {
    // "eat" is defined as "take in solid food": a note about the cat's food answers what she eats.
    const vocabulary = vocabularyOf('Luna’s diet food is now the salmon one', 'Fed the cat');
    const query = buildTextQuery('what does Luna eat', sharedLexicons(), { vocabulary });
    expect(clause(query, CLAUSE_BOOST.related)).toContain('food');
    expect(queryCoverage(query.concepts, toFtsText('Luna’s diet food is now the salmon one'))).toBeGreaterThan(
      queryCoverage(query.concepts, toFtsText('Luna slept all day')),
    );
    // A proper noun's definition is a biography, not a paraphrase.
    expect(sharedLexicons().wordnet()?.glossWords('schulz')).toEqual([]);
    expect(sharedLexicons().wordnet()?.glossWords('box')).toEqual(['container']);
  });

  it('translates Chinese to English and English to Chinese through CC-CEDICT', () => {
    const vocabulary = vocabularyOf('Dentist: Dr. Okafor', '成都的牙医是李医生', 'new bike lock from Abus');
    expect(clause(buildTextQuery('牙医的电话', sharedLexicons(), { vocabulary }), CLAUSE_BOOST.translation)).toContain(
      'dentist',
    );
    expect(clause(buildTextQuery('dentist', sharedLexicons(), { vocabulary }), CLAUSE_BOOST.translation)).toContain(
      '牙医',
    );
    // The dictionary's longest match reads the run, not the segmenter's cut (自行 车 锁).
    expect(clause(buildTextQuery('自行车锁', sharedLexicons(), { vocabulary }), CLAUSE_BOOST.translation)).toEqual(
      expect.arrayContaining(['bike', 'lock']),
    );
  });

  it('offers typo candidates only for words the index does not know', () => {
    const vocabulary = vocabularyOf('Electricity contract with Vattenfall', 'the dentist on Friday');
    const typo = buildTextQuery('electricty vatenfall dentsit', sharedLexicons(), { vocabulary });
    expect(clause(typo, CLAUSE_BOOST.typo)).toEqual(expect.arrayContaining(['electr', 'vattenfal', 'dentist']));
    const known = buildTextQuery('electricity dentist', sharedLexicons(), { vocabulary });
    expect(clause(known, CLAUSE_BOOST.typo)).toEqual([]);
    expect(editDistance('dentsit', 'dentist', 1)).toBe(1);
    expect(editDistance('propfind', 'proxy', 2)).toBe(3);
  });

  it('scores coverage: all words as written 1, a translation or typo partly, nothing 0', () => {
    const vocabulary = vocabularyOf('Switched electricity to Tibber');
    const query = buildTextQuery('electricty tibber', sharedLexicons(), { vocabulary });
    expect(queryCoverage(query.concepts, toFtsText('Switched electricity to Tibber'))).toBeCloseTo(
      (1 + CLAUSE_BOOST.typo) / 2,
    );
    expect(queryCoverage(query.concepts, toFtsText('lunch with Anna'))).toBe(0);
  });

  it('does not open the dictionary for an English query when no note is Chinese, and does once one is', () => {
    const shared = sharedLexicons();
    let opened = 0;
    const counting = {
      ...shared,
      wordnet: () => shared.wordnet(),
      dictionary: () => {
        opened++;
        return shared.dictionary();
      },
    };
    const english = vocabularyOf('Dentist: Dr. Okafor on Elm Street');
    expect(
      clause(buildTextQuery('dentist appointment', counting, { vocabulary: english }), CLAUSE_BOOST.exact),
    ).toEqual(['dentist', 'appoint']);
    expect(opened).toBe(0);
    const mixed = vocabularyOf('Dentist: Dr. Okafor', '成都的牙医是李医生');
    expect(clause(buildTextQuery('dentist', counting, { vocabulary: mixed }), CLAUSE_BOOST.translation)).toContain(
      '牙医',
    );
    expect(opened).toBeGreaterThan(0);
  });

  it('saves and reloads the vocabulary; a missing file is "unknown", not empty', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-vocabulary-'));
    try {
      const vocabulary = new IndexVocabulary(dir);
      await vocabulary.load();
      expect(vocabulary.complete).toBe(false);
      vocabulary.clear();
      vocabulary.addChunk(toFtsText('propfind.rs fails'), 'propfind.rs fails');
      await vocabulary.save();
      const again = new IndexVocabulary(dir);
      await again.load();
      expect(again.complete).toBe(true);
      expect(again.has('propfind.rs')).toBe(true);
      expect(again.candidates('propfnd', 1)).toEqual(['propfind']);
      expect(again.hasChinese).toBe(false);
      again.addChunk(toFtsText('牙医 Dr. Okafor'), '牙医 Dr. Okafor');
      await again.save();
      const third = new IndexVocabulary(dir);
      await third.load();
      expect(third.hasChinese).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
  });
});

const row = memoryRow;

const NOW = new Date(2026, 10, 28, 10).getTime();
const options = {
  vectorWeight: 0.3,
  textWeight: 0.7,
  halfLifeDays: 30,
  mmrLambda: 0.7,
  topK: 5,
  minScore: 0.15,
  now: NOW,
};

describe('hybrid ranking', () => {
  it('never drops a strong old match below minScore for its age', () => {
    const old: BackendHit = { row: row('old', '2025-06-01', 'XmlError in propfind.rs'), score: 9 };
    const ranked = rankHybrid([], [old], options);
    expect(ranked.map((hit) => hit.row.id)).toEqual(['old']);
    expect(ranked[0]!.decay).toBeLessThan(0.001);
    expect(ranked[0]!.score).toBeGreaterThanOrEqual(0.8 * ranked[0]!.relevance);
  });

  it('puts the newer of two comparable matches first, but not a much weaker one', () => {
    const older: BackendHit = { row: row('older', '2026-09-14', 'rent is €1,140'), score: 10 };
    const newer: BackendHit = { row: row('newer', '2026-10-20', 'rent is €1,580'), score: 8 };
    expect(rankHybrid([], [older, newer], options).map((hit) => hit.row.id)).toEqual(['newer', 'older']);
    const weak: BackendHit = { row: row('weak', '2026-11-27', 'rent'), score: 3 };
    expect(rankHybrid([], [older, weak], options).map((hit) => hit.row.id)).toEqual(['older', 'weak']);
  });
});
