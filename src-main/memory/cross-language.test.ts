import { describe, expect, it } from 'vitest';
import { memoryRow } from '../testing/memory-row.js';
import { crossLanguageSubject, statesChange, unitScript } from './cross-language.js';
import { rankHybrid } from './hybrid-ranking.js';
import type { BackendHit } from './memory-backend.js';
import { buildTextQuery, matchedConcepts, queryCoverage, sharedLexicons } from './query-expansion.js';

// A newer note in the other language that corrects an older one (issue 13, recent-vs-old):
// they share no word, so the dictionary links them — by translation and by the sound of names.

const options = {
  vectorWeight: 0.3,
  textWeight: 0.7,
  halfLifeDays: 30,
  mmrLambda: 0.7,
  topK: 5,
  minScore: 0.15,
  now: new Date(2026, 10, 28, 10).getTime(),
};

const dictionary = () => {
  const found = sharedLexicons().dictionary();
  if (!found) throw new Error('CC-CEDICT did not load');
  return found;
};

function rank(query: string, hits: BackendHit[]): string[] {
  const lexicons = sharedLexicons();
  const { concepts } = buildTextQuery(query, lexicons);
  return rankHybrid([], hits, {
    ...options,
    coverage: (candidate) => queryCoverage(concepts, candidate.ftsText),
    matchedConcepts: (candidate) => matchedConcepts(concepts, candidate.ftsText),
    crossLanguageSubject: crossLanguageSubject(dictionary()),
  }).map((hit) => hit.row.id);
}

const plan = '- 18:00 [other] Talked to Li Wei, he plans to move to Chengdu for a job at a game studio';
const changed = '- 21:00 [fact] 李伟说他不去成都了，留在北京';

describe('cross-language subject', () => {
  it('tells a unit by the script most of it is in', () => {
    expect(unitScript(changed)).toBe('cjk');
    expect(unitScript('- Chen Mei (陈梅) is my younger sister, she lives in Shanghai.')).toBe('latin');
  });

  it('links a Chinese note to an English one by names read as pinyin and by translation', () => {
    const same = crossLanguageSubject(dictionary());
    expect(same(memoryRow('en', '2026-10-01', plan), memoryRow('zh', '2026-11-01', changed))).toBe(true);
    // One shared place is not a subject; nor are two notes in the same language.
    expect(
      same(
        memoryRow('hotel', '2026-10-01', '- 09:00 [other] Booked a hotel in Chengdu'),
        memoryRow('hotpot', '2026-11-01', '- 10:00 [other] 同事说成都的火锅很好吃'),
      ),
    ).toBe(false);
    expect(same(memoryRow('a', '2026-10-01', plan), memoryRow('b', '2026-11-01', plan))).toBe(false);
  });

  it('reads the words by which a note says something changed', () => {
    expect(statesChange(changed)).toBe(true);
    expect(statesChange('- 10:00 [fact] Standup is now at 10:15')).toBe(true);
    expect(statesChange('- 10:00 [other] 李伟说成都的火锅很好吃')).toBe(false);
    expect(statesChange(plan)).toBe(false);
  });
});

describe('cross-language supersession in ranking', () => {
  const older: BackendHit = { row: memoryRow('older', '2026-10-01', plan), score: 10 };
  const other: BackendHit = {
    row: memoryRow('other', '2026-11-20', '- 08:00 [other] Li Wei sent photos of the game studio office'),
    score: 6,
  };

  it('puts the newer Chinese correction above the older English note it corrects, however far below', () => {
    const correction: BackendHit = { row: memoryRow('newer', '2026-11-10', changed), score: 4 };
    const ranked = rank('Li Wei Chengdu job', [older, other, correction]);
    expect(ranked.indexOf('newer')).toBeLessThan(ranked.indexOf('older'));
  });

  it('leaves a newer note in the other language that changes nothing where it ranks', () => {
    const mention: BackendHit = {
      row: memoryRow('newer', '2026-11-10', '- 21:00 [fact] 李伟说成都的新工作室很大'),
      score: 4,
    };
    const ranked = rank('Li Wei Chengdu job', [older, other, mention]);
    expect(ranked.indexOf('older')).toBeLessThan(ranked.indexOf('newer'));
  });

  it('never passes a MEMORY.md line by a translated link', () => {
    const evergreen: BackendHit = { row: memoryRow('memory', '', plan), score: 10 };
    const correction: BackendHit = { row: memoryRow('newer', '2026-11-10', changed), score: 4 };
    expect(rank('Li Wei Chengdu job', [evergreen, correction])).toEqual(['memory', 'newer']);
  });
});
