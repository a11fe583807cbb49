import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexVocabulary } from './index-vocabulary.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-vocabulary-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const exact = (...terms: string[]) => [{ terms, boost: 1 }];

describe('index vocabulary: can a full-text query match', () => {
  it('is sure only with a known vocabulary that holds none of the terms', async () => {
    const vocabulary = new IndexVocabulary(dir);
    await vocabulary.load();
    // No vocabulary file: unknown, so the index is asked.
    expect(vocabulary.mayMatch(exact('teal'))).toBe(true);
    vocabulary.clear();
    vocabulary.addChunk('favourit colour teal', 'My favourite colour is teal');
    expect(vocabulary.mayMatch(exact('warm', 'turn', '12'))).toBe(false);
    expect(vocabulary.mayMatch(exact('warm', 'teal'))).toBe(true);
    expect(vocabulary.mayMatch([...exact('warm'), { terms: ['colour'], boost: 0.5 }])).toBe(true);
    // A fuzzy clause matches terms a few edits away: only the index can tell.
    expect(vocabulary.mayMatch([{ terms: ['tael'], boost: 0.3, fuzziness: 1 }])).toBe(true);
    expect(vocabulary.mayMatch([])).toBe(false);
  });

  it('leaves what folding could match to the index: accented terms either side', async () => {
    const vocabulary = new IndexVocabulary(dir);
    vocabulary.clear();
    vocabulary.addChunk('coffe morn', 'coffee in the morning');
    // The index folds accents (asciiFolding): café may match a note's cafe and the other way round.
    expect(vocabulary.mayMatch(exact('café'))).toBe(true);
    expect(vocabulary.mayMatch(exact('电费'))).toBe(true);
    vocabulary.addChunk('café', 'café');
    expect(vocabulary.mayMatch(exact('cafe'))).toBe(true);
    // Chinese terms do not fold to ASCII: an English word still cannot match them.
    const chinese = new IndexVocabulary(dir);
    chinese.clear();
    chinese.addChunk('电费 账单', '电费账单');
    expect(chinese.mayMatch(exact('bill'))).toBe(false);
  });

  it('keeps its answer across save and load', async () => {
    const vocabulary = new IndexVocabulary(dir);
    vocabulary.clear();
    vocabulary.addChunk('naïv plan', 'a naïve plan');
    await vocabulary.save();
    const reloaded = new IndexVocabulary(dir);
    await reloaded.load();
    expect(reloaded.mayMatch(exact('plan'))).toBe(true);
    expect(reloaded.mayMatch(exact('naiv'))).toBe(true);
  });
});
