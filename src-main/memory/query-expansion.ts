import { resolveHearthHome } from '../paths/hearth-paths.js';
import { ANSWER_MARKER, answerKindsAsked } from './answer-kinds.js';
import { editDistance } from './index-vocabulary.js';
import {
  type BilingualDictionary,
  cedictSourcePath,
  lexiconCacheDir,
  loadCedict,
  prepareCedictCache,
} from './lexicon/cedict.js';
import { openWordNet, type WordNet } from './lexicon/wordnet.js';
import type { TextQueryClause } from './memory-backend.js';
import { analyzeText, cjkBigrams, isCjk, isStopWord, rawTokens, tokenTerms } from './text-tokens.js';

/**
 * Turns a search query into weighted full-text clauses. The words as written always count
 * most; everything added to reach notes worded differently counts less, so an exact match
 * still wins over a paraphrase of it:
 *
 * | clause | terms | boost |
 * |---|---|---|
 * | exact | the query's terms, as the index makes them (stems, identifiers and their parts, Chinese words) | 1 |
 * | translation | CC-CEDICT: Chinese words → English keywords, English words → Chinese words | 0.6 |
 * | typo | for a word the index does not know: known terms within 1 edit (2 from 8 letters), same first letter | 0.45 |
 * | synonym | WordNet: single-word synonyms of the word's two most common senses | 0.35 |
 * | bigram | overlapping CJK character pairs (catches names and words the segmenter cuts differently) | 0.3 |
 * | related | WordNet: content words of the definition of the word's most common sense | 0.2 |
 */
export const CLAUSE_BOOST = {
  exact: 1,
  translation: 0.6,
  typo: 0.45,
  /** A question word meeting a unit that states that kind of value ("time" → "10:15"; `answer-kinds.ts`). */
  answer: 0.4,
  synonym: 0.35,
  bigram: 0.3,
  /**
   * A content word of the definition of the query word's most common sense (WordNet's gloss:
   * eat → "take in solid food" → food): how a note says the same thing without the word.
   * Looser than a synonym, so it counts least; only words some note contains are sent.
   */
  related: 0.2,
} as const;

export interface Lexicons {
  wordnet(): WordNet | undefined;
  dictionary(): BilingualDictionary | undefined;
  /** Resolves once `dictionary()` will not block for long (its one-time parse runs off-thread). */
  prepare?(): Promise<void>;
}

/**
 * The shipped lexicons, each loaded on the first query that needs it (WordNet for Latin words,
 * CC-CEDICT for Chinese ones or for translating English): an idle gateway loads neither.
 * A lexicon that cannot be read leaves the search lexical (the error is kept for status).
 * `cacheDir` is this user's own folder for the parsed CC-CEDICT tables (`lexiconCacheDir`).
 */
export function shippedLexicons(cacheDir: string): Lexicons & { errors: string[] } {
  let wordnet: WordNet | undefined | null;
  let dictionary: BilingualDictionary | undefined | null;
  const errors: string[] = [];
  let prepared: Promise<void> | undefined;
  return {
    errors,
    prepare() {
      prepared ??= prepareCedictCache(cedictSourcePath(), cacheDir).catch(() => undefined);
      return prepared;
    },
    wordnet() {
      if (wordnet === undefined) {
        try {
          wordnet = openWordNet();
        } catch (error) {
          wordnet = null;
          errors.push(`WordNet unavailable: ${String(error)}`);
        }
      }
      return wordnet ?? undefined;
    },
    dictionary() {
      if (dictionary === undefined) {
        try {
          dictionary = loadCedict(cedictSourcePath(), cacheDir);
        } catch (error) {
          dictionary = null;
          errors.push(`CC-CEDICT unavailable: ${String(error)}`);
        }
      }
      return dictionary ?? undefined;
    },
  };
}

let shared: ReturnType<typeof shippedLexicons> | undefined;
/**
 * One set of lexicons per process: every agent's engine shares the same read-only data. The
 * cache folder is `HEARTH_HOME/cache/lexicon` unless the first caller names another.
 */
export function sharedLexicons(cacheDir: string = lexiconCacheDir(resolveHearthHome(process.env))): Lexicons {
  shared ??= shippedLexicons(cacheDir);
  return shared;
}

/** What the query side needs to know of the index's terms (`IndexVocabulary`). */
export interface KnownTerms {
  /** False when the vocabulary is not known (then typos go to the index's own fuzzy matching). */
  readonly complete: boolean;
  has(term: string): boolean;
  /**
   * Whether any term is Chinese. Translations no note contains are dropped anyway, so with none
   * an English query skips the dictionary (and a first search on an English-only index never
   * pays for loading CC-CEDICT).
   */
  readonly hasChinese: boolean;
  candidates(word: string, distance: 1 | 2): string[];
}

export interface ExpansionOptions {
  /** Off: only the exact and bigram clauses (the "BM25 alone" baseline of the evaluation). */
  expand?: boolean;
  vocabulary?: KnownTerms;
}

/**
 * One thing the query asks for — a word, a code token, a Chinese word — and the terms that
 * count as finding it, each with its credit (1 for the term as written, the clause boost for
 * a translation, synonym or bigram). `fuzzy` is the stem a typo may stand for.
 */
export interface QueryConcept {
  terms: Map<string, number>;
  fuzzy?: { stem: string; distance: 1 | 2 };
}

export interface TextQuery {
  clauses: TextQueryClause[];
  concepts: QueryConcept[];
}

export function buildTextQuery(query: string, lexicons: Lexicons, options: ExpansionOptions = {}): TextQuery {
  const expand = options.expand !== false;
  const vocabulary = options.vocabulary?.complete ? options.vocabulary : undefined;
  const concepts: QueryConcept[] = [];
  const secondary: string[] = [];
  const translations: string[] = [];
  const synonyms: string[] = [];
  const related: string[] = [];
  const corrections: string[] = [];
  const fuzzy: { stem: string; distance: 1 | 2 }[] = [];
  const credit = (concept: QueryConcept, term: string, value: number) => {
    if ((concept.terms.get(term) ?? 0) < value) concept.terms.set(term, value);
  };
  const tokens = rawTokens(query);
  for (const token of tokens) {
    const terms = tokenTerms(token);
    if (isCjk(token[0]!)) {
      const runConcepts: QueryConcept[] = [];
      for (const word of terms.primary) {
        const concept: QueryConcept = { terms: new Map([[word, 1]]) };
        for (const gram of [...word].length > 2 ? cjkBigrams(word) : []) credit(concept, gram, CLAUSE_BOOST.bigram);
        runConcepts.push(concept);
      }
      if (expand) {
        // Translated by the dictionary's own longest-match reading of the run, which knows
        // more compounds than the segmenter (自行车锁 → 自行车 锁, not 自行 车 锁).
        for (const { word, english } of translateRun(lexicons, token)) {
          const concept = runConcepts.find((entry) =>
            [...entry.terms.keys()].some((term) => word.includes(term) || term.includes(word)),
          );
          for (const term of english) {
            if (concept) credit(concept, term, CLAUSE_BOOST.translation);
            translations.push(term);
          }
        }
      }
      concepts.push(...runConcepts);
      secondary.push(...terms.secondary);
      continue;
    }
    if (terms.primary.length === 0) continue;
    const concept: QueryConcept = { terms: new Map(terms.primary.map((term) => [term, 1])) };
    const plainWord = /^\p{L}+$/u.test(token) && token.length > 2;
    if (expand && plainWord) {
      const base = terms.primary[0]!;
      if (vocabulary) {
        // A word the index has never seen is probably mistyped: the known terms a few edits away.
        if (token.length >= 4 && !vocabulary.has(base))
          for (const candidate of vocabulary.candidates(token, token.length >= 8 ? 2 : 1)) {
            credit(concept, candidate, CLAUSE_BOOST.typo);
            corrections.push(candidate);
          }
      } else if (token.length >= 5) {
        concept.fuzzy = { stem: base, distance: base.length >= 8 ? 2 : 1 };
        fuzzy.push(concept.fuzzy);
      }
      const dictionary = !vocabulary || vocabulary.hasChinese ? lexicons.dictionary() : undefined;
      for (const chinese of dictionary?.chinese(base).slice(0, 4) ?? []) {
        credit(concept, chinese, CLAUSE_BOOST.translation);
        translations.push(chinese);
      }
      for (const synonym of lexicons.wordnet()?.synonyms(token).slice(0, 8) ?? [])
        for (const term of analyzeText(synonym.replaceAll('_', ' ')).primary) {
          credit(concept, term, CLAUSE_BOOST.synonym);
          synonyms.push(term);
        }
      for (const gloss of lexicons.wordnet()?.glossWords(token.toLowerCase()) ?? [])
        for (const term of analyzeText(gloss).primary)
          if (!vocabulary || vocabulary.has(term)) {
            credit(concept, term, CLAUSE_BOOST.related);
            related.push(term);
          }
    }
    concepts.push(concept);
  }
  // A question word that asks for a value ("time", "how much", 几点) also finds units stating one.
  const answers: string[] = [];
  if (expand)
    for (const { kind, token } of answerKindsAsked(tokens)) {
      const marker = ANSWER_MARKER[kind];
      const asked = isCjk(token[0]!) ? undefined : tokenTerms(token).primary[0];
      const concept = concepts.find((entry) =>
        [...entry.terms.keys()].some((term) => (asked ? term === asked : token.includes(term))),
      );
      if (concept) credit(concept, marker, CLAUSE_BOOST.answer);
      answers.push(marker);
    }
  // Identifier words (`UnexpectedEof` → unexpect, eof) are extra terms of their token's concept.
  const { primary } = analyzeText(query);
  const exact = new Set(primary);
  for (const term of primary)
    if (!concepts.some((concept) => concept.terms.get(term) === 1)) concepts.push({ terms: new Map([[term, 1]]) });

  const clauses: TextQueryClause[] = [];
  // Added terms no note contains cannot match; leaving them out keeps the query short.
  const add = (terms: Iterable<string>, boost: number) => {
    const fresh = [...new Set(terms)].filter(
      (term) => term && !exact.has(term) && (!vocabulary || vocabulary.has(term)),
    );
    if (fresh.length > 0) clauses.push({ terms: fresh, boost });
  };
  if (exact.size > 0) clauses.push({ terms: [...exact], boost: CLAUSE_BOOST.exact });
  add(secondary, CLAUSE_BOOST.bigram);
  add(translations, CLAUSE_BOOST.translation);
  add(corrections, CLAUSE_BOOST.typo);
  add(answers, CLAUSE_BOOST.answer);
  add(synonyms, CLAUSE_BOOST.synonym);
  add(related, CLAUSE_BOOST.related);
  for (const distance of [1, 2] as const) {
    const words = [...new Set(fuzzy.filter((entry) => entry.distance === distance).map((entry) => entry.stem))];
    if (words.length > 0) clauses.push({ terms: words, boost: CLAUSE_BOOST.typo, fuzziness: distance });
  }
  return { clauses, concepts };
}

/**
 * English keywords for a run of Chinese: forward longest match against the dictionary (up to 6
 * characters), skipping function words; a character the dictionary has no compound for is
 * read on its own (电费 → 电 electricity, 费 fee).
 */
function translateRun(lexicons: Lexicons, run: string): { word: string; english: readonly string[] }[] {
  const dictionary = lexicons.dictionary();
  if (!dictionary) return [];
  const chars = [...run];
  const out: { word: string; english: readonly string[] }[] = [];
  for (let start = 0; start < chars.length; ) {
    let cut = Math.min(chars.length, start + 6);
    let found: readonly string[] = [];
    for (; cut > start; cut--) {
      const word = chars.slice(start, cut).join('');
      if (isStopWord(word)) break;
      found = dictionary.english(word);
      if (found.length > 0) break;
    }
    const word = chars.slice(start, Math.max(cut, start + 1)).join('');
    if (found.length > 0 && !isStopWord(word)) out.push({ word, english: found.slice(0, word.length > 1 ? 4 : 2) });
    start = Math.max(cut, start + 1);
  }
  return out;
}

/**
 * How much of the query a chunk covers, 0..1: the weighted mean over the query's concepts of the
 * best credit among the chunk's terms (a word as written 1, a translation 0.6, a typo's intended
 * word 0.45, …). BM25 alone lets a short chunk that repeats one query word beat one that
 * answers the whole query; coverage is what puts the latter first. `weights` (`weightsOfCredits`)
 * make a rare word count for more than a common one; without them every concept counts alike.
 */
export function queryCoverage(concepts: readonly QueryConcept[], ftsText: string, weights?: readonly number[]): number {
  return coverageOfCredits(conceptCredits(concepts, ftsText), weights);
}

/** `queryCoverage` from a unit's concept credits (`conceptCredits`), when they are already at hand. */
export function coverageOfCredits(credits: readonly number[], weights?: readonly number[]): number {
  if (credits.length === 0) return 0;
  let total = 0;
  let sum = 0;
  credits.forEach((credit, index) => {
    const weight = weights?.[index] ?? 1;
    total += weight * credit;
    sum += weight;
  });
  return sum > 0 ? total / sum : 0;
}

/**
 * An inverse-document-frequency weight per concept, measured on the search's own candidates:
 * in "standup time" the word most candidates share ("time") tells less about which note is
 * meant than the one few of them have ("standup"), so a unit with only the rare word outranks
 * one with only the common word. The candidate pool stands in for the index (its terms are at
 * hand; the index's document counts are not).
 */
export function weightsOfCredits(conceptCount: number, candidates: readonly (readonly number[])[]): number[] {
  const frequency = new Array<number>(conceptCount).fill(0);
  for (const credits of candidates)
    credits.forEach((credit, index) => {
      // A unit that only touches the word's definition does not make the word common.
      if (credit > CLAUSE_BOOST.related) frequency[index]!++;
    });
  const pool = candidates.length;
  return frequency.map((count) => Math.log(1 + (pool + 1) / (count + 0.5)));
}

/** Which of the query's concepts a chunk matches at all (by any clause): their indexes. */
export function matchedConcepts(concepts: readonly QueryConcept[], ftsText: string): Set<number> {
  return matchedOfCredits(conceptCredits(concepts, ftsText));
}

export function matchedOfCredits(credits: readonly number[]): Set<number> {
  const matched = new Set<number>();
  credits.forEach((credit, index) => {
    if (credit > 0) matched.add(index);
  });
  return matched;
}

/**
 * The best credit of each concept among the chunk's terms. A search computes it once per
 * candidate (the weights, the coverage and the supersession check all read it).
 */
export function conceptCredits(concepts: readonly QueryConcept[], ftsText: string): number[] {
  const terms = new Set(ftsText.split(' '));
  return concepts.map((concept) => {
    let best = 0;
    for (const [term, value] of concept.terms) if (value > best && terms.has(term)) best = value;
    if (best < CLAUSE_BOOST.typo && concept.fuzzy) {
      const { stem: wanted, distance } = concept.fuzzy;
      for (const term of terms)
        if (Math.abs(term.length - wanted.length) <= distance && editDistance(term, wanted, distance) <= distance) {
          best = CLAUSE_BOOST.typo;
          break;
        }
    }
    return best;
  });
}
