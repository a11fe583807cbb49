/**
 * Tokenising shared by the embedder, the full-text column and capture. CJK scripts have
 * no spaces, so a run of Han/Kana/Hangul is split into overlapping character bigrams
 * (plus the single character when the run is one long); Latin text is lower-cased words.
 */

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
const CJK_GLOBAL = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/g;
const TOKEN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+|[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

export function isCjk(char: string): boolean {
  return CJK.test(char);
}

/** Words and CJK runs in order, lower-cased. */
export function rawTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** A CJK run as bigrams ("我喜欢" → 我喜 喜欢); a lone character stays itself. */
export function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

const STOP = new Set(
  'a an and are as at be but by for from has have i in is it its me my of on or our so that the their them they this to was we were what when where which who will with you your do does did can could would should about into than then there these those been being am not no'.split(
    ' ',
  ),
);

export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

/** A light suffix stripper: enough that "meetings"/"meeting" and "prefers"/"preferred" meet. */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  for (const suffix of ['ingly', 'edly', 'ing', 'ies', 'ied', 'ed', 'es', 'ly', 's']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length);
      return suffix === 'ies' || suffix === 'ied' ? `${base}y` : base;
    }
  }
  return word;
}

const termCache = new Map<string, readonly string[]>();
const NO_TERMS: readonly string[] = [];

/** The match terms of one raw token, memoised: indexing sees the same words over and over. */
function tokenTerms(token: string): readonly string[] {
  let terms = termCache.get(token);
  if (!terms) {
    if (isCjk(token[0]!)) terms = cjkBigrams(token);
    else terms = isStopWord(token) ? NO_TERMS : [stem(token.replace(/['’]s$/, ''))];
    if (termCache.size >= 100_000) termCache.clear();
    termCache.set(token, terms);
  }
  return terms;
}

/** Terms for matching: stemmed non-stop words plus CJK bigrams. */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of rawTokens(text)) for (const term of tokenTerms(token)) terms.push(term);
  return terms;
}

/**
 * The string put in the full-text column and used as the FTS query: the index's own
 * whitespace tokenizer then sees CJK bigrams and stemmed words as separate terms.
 */
export function toFtsText(text: string): string {
  return searchTerms(text).join(' ');
}

/** Rough token count without a tokenizer: ~4 Latin chars per token, one per CJK char. */
export function estimateTokens(text: string): number {
  // One regex pass instead of a test per character: the chunker calls this for every line.
  const cjk = CJK.test(text) ? (text.match(CJK_GLOBAL)?.length ?? 0) : 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}
