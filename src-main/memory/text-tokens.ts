import { stemmer } from 'stemmer';

/**
 * Tokenising shared by the full-text column, the query, the embedder and capture.
 *
 * Latin text: a token is a run of letters and digits joined by `. - / : @ + _ #` (so
 * `propfind.rs`, `2026-09-20`, `€0.27/kWh` and `api.example.com` stay whole). Each token gives
 * its whole form and its parts (`propfind`, `rs`; `€0.27`, `0.27`, `kwh`), and code identifiers
 * give their camelCase / snake_case words (`UnexpectedEof` → `unexpectedeof`, `unexpect`, `eof`).
 * Plain words are Porter-stemmed (`meetings` → `meet`); anything with a digit is kept as written.
 *
 * CJK: a run of Han / Kana / Hangul is cut into words by ICU's dictionary segmenter
 * (`Intl.Segmenter`, built into Node) — `我决定把求解器换成增量版本` → 决定 求解 器 换成 增量 版本 —
 * and also into overlapping character bigrams, a secondary field that still matches when the
 * segmenter cuts a name or a new word differently in the note and in the query.
 */

const CJK_CLASS = '\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uac00-\\ud7af';
const CJK = new RegExp(`[${CJK_CLASS}]`);
const CJK_GLOBAL = new RegExp(`[${CJK_CLASS}]`, 'g');
/** Letters and digits that are not CJK (set subtraction needs the `v` flag). */
const LATIN_CHAR =
  '[[\\p{L}\\p{N}\\p{M}]--[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]]';
const CURRENCY = '[€$£¥₹]';
const JOINER = "[._\\-\\/:@+#'’]";
/**
 * One raw token: a CJK run, or a Latin token with its joiners, optionally led by a currency
 * sign and followed by `%`. Joiners only count between two word characters, so a sentence's
 * final period or a path's leading slash is not part of the token.
 */
const TOKEN = new RegExp(`[${CJK_CLASS}]+|${CURRENCY}?(?:${LATIN_CHAR}|_)+(?:${JOINER}+(?:${LATIN_CHAR}|_)+)*%?`, 'gv');

export function isCjk(char: string): boolean {
  return CJK.test(char);
}

/** Raw tokens in order, lower-cased: Latin tokens with their joiners, and CJK runs. */
export function rawTokens(text: string): string[] {
  // Thousands separators go: "$1,200" and "$1200" are the same amount.
  const plain = /\d,\d/.test(text) ? text.replace(/(\d),(?=\d{3}(?!\d))/g, '$1') : text;
  return plain.toLowerCase().match(TOKEN) ?? [];
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
  "a an and are as at be but by for from has have i i'm in is it its me my of on or our so that the their them they this to was we were what when where which who whom will with you your do does did done can could would should about into than then there these those been being am not no how why also just any all some get got i've i'd let's dont doesnt didnt im ive us he she his her him".split(
    ' ',
  ),
);

/**
 * Chinese function words and particles: they carry no topic and would otherwise match almost
 * every Chinese note (the segmenter returns them as words of their own).
 */
const CJK_STOP = new Set(
  '的 了 是 在 我 你 他 她 它 们 我们 你们 他们 和 与 及 把 被 就 都 也 还 又 很 吗 呢 吧 啊 呀 哦 嗯 这 那 这个 那个 这些 那些 什么 怎么 怎样 如何 哪 哪里 哪儿 哪个 为什么 有 没有 没 不 要 会 能 可以 对 给 从 到 上 下 里 中 个 一个 之 其 时 时候 以 因为 所以 但 但是 而 或 或者 如果 已经 一下 一些 关于 吗？ 呢？ 之前 之后 以前 以后 多少 几 谁 得 地 着 过 让 用 做 说 想 知道 记得 是否 有没有'.split(
    ' ',
  ),
);

export function isStopWord(word: string): boolean {
  return STOP.has(word) || CJK_STOP.has(word);
}

/** Porter stemming for plain alphabetic words; numbers, codes and short words stay as written. */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  return stemmer(word);
}

/** Splits `XmlError` / `unexpected_eof` / `getHTTPResponse` into lower-case words. */
function identifierWords(token: string): string[] {
  return token
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[\s_]+/)
    .filter(Boolean);
}

let segmenter: Intl.Segmenter | undefined;
/** ICU's word segmenter, created on first use (it loads ICU's CJK dictionary). */
function cjkWords(run: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  const words: string[] = [];
  for (const part of segmenter.segment(run)) if (part.isWordLike) words.push(part.segment);
  return words;
}

/** The terms of one raw token: primary (words, whole forms and parts) and secondary (CJK bigrams). */
export interface TokenTerms {
  primary: readonly string[];
  secondary: readonly string[];
}

const NONE: TokenTerms = { primary: [], secondary: [] };
const termCache = new Map<string, TokenTerms>();
const caseCache = new Map<string, readonly string[]>();

function cjkTerms(run: string): TokenTerms {
  const words = cjkWords(run).filter((word) => !CJK_STOP.has(word));
  const bigrams = [...run].length > 1 ? cjkBigrams(run).filter((gram) => !words.includes(gram)) : [];
  return { primary: words, secondary: bigrams };
}

/** Terms of a lower-cased Latin token (see the module comment). */
function latinTerms(token: string): TokenTerms {
  let word = token.replace(/['’]s$/, '');
  // "don't", "o'clock": one word, not two.
  if (/^[\p{L}]+['’][\p{L}]+$/u.test(word)) word = word.replace(/['’]/, '');
  if (/^[\p{L}\p{M}]+$/u.test(word)) {
    const stemmed = stem(word);
    return isStopWord(word) || isStopWord(stemmed) ? NONE : { primary: [stemmed], secondary: [] };
  }
  // A number with its unit ("10k", "64kib", "5mg") is also the number and the unit.
  const measure = /^([€$£¥₹]?\d+(?:[.,]\d+)?)(\p{L}+)$/u.exec(word);
  if (measure) return { primary: [word, measure[1]!.replace(/^[€$£¥₹]/, ''), stem(measure[2]!)], secondary: [] };
  const out = new Set<string>();
  const whole = word.replace(/%$/, '');
  out.add(whole);
  // Parts: split at joiners; a '.' or ',' between two digits is a decimal point, not a joiner.
  for (const part of whole.split(/[_\-/:@+#'’]+|(?<!\d)[.,]|[.,](?!\d)/)) {
    if (!part) continue;
    const bare = part.replace(/^[€$£¥₹]/, '');
    if (bare !== part) out.add(part);
    if (!bare) continue;
    if (/^[\p{L}\p{M}]+$/u.test(bare)) {
      if (!isStopWord(bare)) out.add(stem(bare));
    } else out.add(bare);
  }
  return { primary: [...out], secondary: [] };
}

/** The terms of one raw token, memoised: indexing sees the same tokens over and over. */
export function tokenTerms(token: string): TokenTerms {
  let terms = termCache.get(token);
  if (!terms) {
    terms = isCjk(token[0]!) ? cjkTerms(token) : latinTerms(token);
    if (termCache.size >= 100_000) termCache.clear();
    termCache.set(token, terms);
  }
  return terms;
}

/**
 * camelCase / snake_case words of the identifiers in the original (not lower-cased) text:
 * `XmlError(UnexpectedEof)` → xml error unexpect eof. Only for tokens with more than one word.
 */
function identifierTerms(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*/g)) {
    const token = match[0];
    if (!/[a-z][A-Z]|[A-Z]{2}[a-z]|_/.test(token)) continue;
    let words = caseCache.get(token);
    if (!words) {
      words = identifierWords(token)
        .filter((word) => word.length > 1 && !isStopWord(word))
        .map(stem);
      if (words.length < 2) words = [];
      if (caseCache.size >= 50_000) caseCache.clear();
      caseCache.set(token, words);
    }
    out.push(...words);
  }
  return out;
}

/** Primary and secondary terms of a text. */
export function analyzeText(text: string): { primary: string[]; secondary: string[] } {
  const primary: string[] = [];
  const secondary: string[] = [];
  for (const token of rawTokens(text)) {
    const terms = tokenTerms(token);
    for (const term of terms.primary) primary.push(term);
    for (const term of terms.secondary) secondary.push(term);
  }
  if (/[a-z][A-Z]|_/.test(text)) primary.push(...identifierTerms(text));
  return { primary, secondary };
}

/** All match terms of a text (primary, then secondary). */
export function searchTerms(text: string): string[] {
  const { primary, secondary } = analyzeText(text);
  return secondary.length > 0 ? [...primary, ...secondary] : primary;
}

/**
 * The string put in the full-text column: terms separated by spaces, which the index splits
 * on whitespace only, so `propfind.rs` and `€0.27` reach it as single terms.
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
