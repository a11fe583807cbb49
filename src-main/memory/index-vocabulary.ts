import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { TextQueryClause } from './memory-backend.js';
import { isCjk, stem } from './text-tokens.js';

const FILE = 'hearth-vocabulary.txt';
/** Lines of plain words start with this (index terms never contain a space-like U+0001). */
const WORD_PREFIX = '\u0001';
const ASCII = /^[\x00-\x7f]*$/;
/** A character outside ASCII and the CJK / kana / Hangul blocks (which ASCII folding leaves alone). */
const FOLDABLE = /[^\x00-\x7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;

/**
 * The terms the full-text index holds (a superset: terms of deleted notes stay until the next
 * full rebuild, which only costs a wasted lookup). With it the query side knows which words the
 * index has never seen — only those get typo candidates — and drops expansion terms (synonyms,
 * translations) that no note contains, so the full-text query stays as short as the user's.
 * Kept beside the LanceDB table as one term per line, then the plain words.
 */
export class IndexVocabulary {
  private terms = new Set<string>();
  /**
   * Words as written (lower-case, letters only, 4+): typos are compared with these, not with
   * stems — "electricty" is one edit from "electricity", but far from its stem "electr".
   */
  private words = new Set<string>();
  /** Words by length, for typo candidates (rebuilt lazily after additions). */
  private byLength: string[][] | undefined;
  private dirty = false;
  /** How many terms are Chinese: with none, English words need no translation (and no dictionary). */
  private chineseTerms = 0;
  /**
   * How many terms have letters the index's ASCII folding may turn into ASCII (accents,
   * ligatures, full-width forms): with any, an ASCII query term could match one of them.
   */
  private foldableTerms = 0;
  /** False until loaded from disk or rebuilt: a missing file means "unknown", not "empty". */
  complete = false;

  constructor(private readonly dir: string) {}

  get size(): number {
    return this.terms.size;
  }

  has(term: string): boolean {
    return this.terms.has(term);
  }

  get hasChinese(): boolean {
    return this.chineseTerms > 0;
  }

  private addTerm(term: string): void {
    this.terms.add(term);
    if (isCjk(term[0]!)) this.chineseTerms++;
    if (FOLDABLE.test(term)) this.foldableTerms++;
  }

  /**
   * Whether a full-text query for these terms can find anything: false only when it is sure
   * not to (the vocabulary is known, holds none of them, and folding cannot make one match),
   * so the search can skip the index's query and get the same empty answer.
   */
  mayMatch(clauses: readonly TextQueryClause[]): boolean {
    if (!this.complete) return true;
    for (const clause of clauses) {
      if (clause.fuzziness) return true;
      for (const term of clause.terms) {
        if (this.terms.has(term)) return true;
        // Folded by the index (café → cafe), a term not written in ASCII may match another form.
        if (!ASCII.test(term)) return true;
        if (this.foldableTerms > 0) return true;
      }
    }
    return false;
  }

  /** Adds a chunk: its full-text terms and the plain words of its text. */
  addChunk(ftsText: string, text?: string): void {
    for (const term of ftsText.split(' '))
      if (term && !this.terms.has(term)) {
        this.addTerm(term);
        this.dirty = true;
      }
    if (text)
      for (const word of text.toLowerCase().match(/\p{L}{4,}/gu) ?? [])
        if (!this.words.has(word) && !/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(word)) {
          this.words.add(word);
          this.dirty = true;
          this.byLength = undefined;
        }
  }

  /**
   * Index terms for the words within `distance` edits of a word the index does not know
   * (same first letter: people rarely mistype that one), closest first.
   */
  candidates(word: string, distance: 1 | 2, limit = 4): string[] {
    if (!this.byLength) {
      this.byLength = [];
      for (const known of this.words) {
        const bucket = this.byLength[known.length] ?? [];
        bucket.push(known);
        this.byLength[known.length] = bucket;
      }
    }
    const out: { term: string; edits: number }[] = [];
    for (let length = word.length - distance; length <= word.length + distance; length++)
      for (const known of this.byLength[length] ?? []) {
        if (known[0] !== word[0]) continue;
        const edits = editDistance(known, word, distance);
        if (edits <= distance) out.push({ term: stem(known), edits });
      }
    out.sort((a, b) => a.edits - b.edits);
    return [...new Set(out.map((entry) => entry.term))].slice(0, limit);
  }

  clear(): void {
    this.terms.clear();
    this.chineseTerms = 0;
    this.foldableTerms = 0;
    this.words.clear();
    this.byLength = undefined;
    this.dirty = true;
    this.complete = true;
  }

  async load(): Promise<void> {
    try {
      const lines = (await readFile(join(this.dir, FILE), 'utf8')).split('\n');
      this.terms = new Set();
      this.words = new Set();
      this.chineseTerms = 0;
      this.foldableTerms = 0;
      for (const line of lines)
        if (line.startsWith(WORD_PREFIX)) this.words.add(line.slice(1));
        else if (line) this.addTerm(line);
      this.complete = true;
    } catch {
      this.terms = new Set();
      this.chineseTerms = 0;
      this.foldableTerms = 0;
      this.complete = false;
    }
    this.byLength = undefined;
    this.dirty = false;
  }

  async save(): Promise<void> {
    if (!this.dirty) return;
    const words = [...this.words].map((word) => WORD_PREFIX + word);
    await writeFileAtomic(join(this.dir, FILE), [...this.terms, ...words].join('\n'));
    this.dirty = false;
  }

  async drop(): Promise<void> {
    this.terms.clear();
    this.chineseTerms = 0;
    this.foldableTerms = 0;
    this.words.clear();
    this.byLength = undefined;
    this.complete = false;
    await rm(join(this.dir, FILE), { force: true });
  }
}

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string alignment):
 * "dentsit" is one typo away from "dentist", not two. Exits early once every path exceeds `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
