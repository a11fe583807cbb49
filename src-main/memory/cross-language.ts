import type { BilingualDictionary } from './lexicon/cedict.js';
import type { MemoryChunkRow } from './memory-backend.js';
import { analyzeText, isCjk, isStopWord, rawTokens, tokenTerms } from './text-tokens.js';

/**
 * Two units about the same subject in different languages: a Chinese note correcting an English
 * one (陈梅说她更喜欢上海，不想去深圳了 after "Called Mei, she is thinking about moving to Shenzhen").
 * They share no term, so the same-language test (`sameSubject`) cannot see it; here each unit
 * is read into English-side keys through CC-CEDICT — a Chinese word's English keywords, and,
 * for names, its sound: the pinyin of a word the dictionary cannot translate (陈梅 → chen, mei)
 * and of any word (上海 → shanghai), met by the English unit's capitalised words (Mei,
 * Shanghai). The units are linked by the English unit's words that reach the other unit
 * through the dictionary (a Latin word written inside the Chinese note is not a translation).
 */

export type UnitScript = 'cjk' | 'latin';

/** The script most of a unit is in: Chinese characters (about 1.5 to a word) against Latin words. */
export function unitScript(text: string): UnitScript {
  let cjk = 0;
  for (const char of text) if (isCjk(char)) cjk++;
  const latinWords = text.match(/[A-Za-z]{2,}/g)?.length ?? 0;
  return cjk / 1.5 > latinWords ? 'cjk' : 'latin';
}

/**
 * How many of its words a translated link must share, relative to the smaller unit: the
 * same-language share (0.3) times what a translation is worth against a word as written (0.6,
 * the query side's translation credit) — a dictionary reading loses particles, idiom and the
 * words it has no entry for.
 */
export const CROSS_LANGUAGE_SHARE = 0.3 * 0.6;
/**
 * At least this many distinct words linked (one shared name or place alone is not a subject),
 * one of them by sound: a person or a place (Mei ↔ 陈梅, Shenzhen ↔ 深圳) is what pins two notes
 * to the same matter across languages; common words' glosses (time, solve) link loosely.
 */
export const CROSS_LANGUAGE_LINKS = 2;

/**
 * Words by which a note says that something changed ("now", "no longer", "switched", 不再,
 * 不想…了, 改成, 现在, 取消). Within one language a correction shows by what it shares with the
 * older note and what it changes (the numbers, the place); across languages nothing is shared
 * word for word, so a newer note counts as a correction only when it says so.
 */
const CHANGE_CUES =
  /\b(?:now|no longer|any ?more|instead|changed?|switch(?:ed|es)?|cancell?ed|postponed|rescheduled|actually|not going)\b|不再|不\p{Script=Han}{1,6}了|改成|改为|改到|换成|换了|现在|取消|推迟|延期|其实/iu;

export function statesChange(text: string): boolean {
  return CHANGE_CUES.test(unitBody(text));
}

/** Whether the two units are in different scripts and about the same subject. */
export type CrossLanguageSubject = (a: MemoryChunkRow, b: MemoryChunkRow) => boolean;

/** The cross-language same-subject test over one search's candidates (keys are computed once per unit). */
export function crossLanguageSubject(dictionary: BilingualDictionary): CrossLanguageSubject {
  const scripts = new Map<string, UnitScript>();
  const latin = new Map<string, Map<string, string[]>>();
  const cjk = new Map<string, { keys: Set<string>; words: number }>();
  const scriptOf = (row: MemoryChunkRow) => {
    let script = scripts.get(row.id);
    if (!script) {
      script = unitScript(row.text);
      scripts.set(row.id, script);
    }
    return script;
  };
  const latinOf = (row: MemoryChunkRow) => {
    let words = latin.get(row.id);
    if (!words) {
      words = latinWords(row.text);
      latin.set(row.id, words);
    }
    return words;
  };
  const cjkOf = (row: MemoryChunkRow) => {
    let keys = cjk.get(row.id);
    if (!keys) {
      keys = chineseKeys(row.text, dictionary);
      cjk.set(row.id, keys);
    }
    return keys;
  };
  return (a, b) => {
    const scriptA = scriptOf(a);
    if (scriptA === scriptOf(b)) return false;
    const [english, chinese] = scriptA === 'latin' ? [a, b] : [b, a];
    const words = latinOf(english);
    const other = cjkOf(chinese);
    let links = 0;
    let byName = false;
    for (const keys of words.values()) {
      const linked = keys.filter((key) => other.keys.has(key));
      if (linked.length > 0) links++;
      if (linked.some((key) => key.startsWith('py:'))) byName = true;
    }
    const smaller = Math.min(words.size, other.words);
    return byName && links >= CROSS_LANGUAGE_LINKS && smaller > 0 && links >= CROSS_LANGUAGE_SHARE * smaller;
  };
}

/**
 * An English unit's content words, each with the keys that find it on the Chinese side: its
 * stem, and for a capitalised word past the sentence's start (a name) its spelling as pinyin.
 */
function latinWords(text: string): Map<string, string[]> {
  const words = new Map<string, string[]>();
  const body = unitBody(text);
  for (const match of body.matchAll(/[A-Za-z]+/g)) {
    const word = match[0].toLowerCase();
    if (word.length < 2 || isStopWord(word) || words.has(word)) continue;
    const stem = analyzeText(word).primary[0];
    if (!stem) continue;
    const before = body.slice(0, match.index).trimEnd();
    const name = /^[A-Z]/.test(match[0]) && before !== '' && !/[.!?:;(]$/.test(before);
    words.set(word, name ? [stem, `py:${word}`] : [stem]);
  }
  return words;
}

/**
 * A Chinese unit's keys: each word's English keywords and pinyin. Characters the segmenter left
 * on their own next to each other (陈|梅 of 陈梅说) are usually a name it does not know: they
 * are read together by sound too, and so is any word the dictionary has no entry for.
 */
function chineseKeys(text: string, dictionary: BilingualDictionary): { keys: Set<string>; words: number } {
  const keys = new Set<string>();
  let words = 0;
  const bySound = (chars: string[], syllables: boolean) => {
    if (chars.length > 4) return;
    const readings = chars.map((char) => dictionary.readings(char));
    if (readings.every((reading) => reading.length > 0)) keys.add(`py:${readings.map((r) => r[0]).join('')}`);
    if (syllables) for (const reading of readings) for (const syllable of reading) keys.add(`py:${syllable}`);
  };
  for (const token of rawTokens(unitBody(text))) {
    if (!isCjk(token[0]!)) {
      // A Latin word inside a Chinese note (routekit, DJI) is no translation: it counts as a
      // word of the unit, not as a link (the same-language test already sees shared words).
      for (const term of tokenTerms(token).primary) if (!/\d/.test(term) && !isStopWord(term)) words++;
      continue;
    }
    let singles: string[] = [];
    const flush = () => {
      if (singles.length >= 2) bySound(singles, true);
      singles = [];
    };
    for (const word of tokenTerms(token).primary) {
      const chars = [...word];
      if (chars.length === 1) {
        singles.push(word);
        continue;
      }
      flush();
      words++;
      const english = dictionary.english(word);
      for (const keyword of english.slice(0, 4)) keys.add(keyword);
      bySound(chars, english.length === 0);
    }
    flush();
  }
  return { keys, words };
}

/** The unit without a daily bullet's marker, time stamp and `[category]` tag. */
function unitBody(text: string): string {
  return text.replace(/^\s*(?:[-*+]\s+)?(?:\d{1,2}:\d{2}\s+)?(?:\[[^\]]*\]\s*)?/, '');
}
