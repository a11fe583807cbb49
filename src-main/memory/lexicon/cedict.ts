import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startModuleWorker } from '../../base/module-worker.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { stem } from '../text-tokens.js';

/**
 * Chinese ↔ English from CC-CEDICT (CC BY-SA 4.0; the `hanzi` package ships the 2026-09
 * edition as `lib/data/cedict_ts.u8.js`). Read once, on the first search that needs it, into
 * two compact tables: a simplified headword → its English keywords (stemmed content words of
 * its first glosses), and an English keyword → the short headwords whose gloss is just that
 * word. The 10 MB source text is dropped after parsing.
 */

export interface BilingualDictionary {
  /** English keywords (stemmed) for a Chinese word, most salient first. */
  english(chinese: string): readonly string[];
  /** Chinese words glossed as exactly this English word (`dentist` → 牙医), shortest first. */
  chinese(englishWord: string): readonly string[];
  /**
   * The readings of one character as toneless pinyin syllables (梅 → mei): how a name the
   * dictionary cannot translate (陈梅) is spelled in an English note (Chen Mei).
   */
  readings(char: string): readonly string[];
  /** Headwords in the dictionary (for tests and the docs' numbers). */
  readonly size: number;
}

const GLOSS_STOP = new Set(
  'a an the to of and or in on at for with by be is sb sth one oneself something somebody someone etc used as from into out up down off'.split(
    ' ',
  ),
);

/** Glosses that describe a word instead of translating it. */
const META_GLOSS =
  /^(?:variant of|old variant|see |surname |abbr\.|used in|erhua variant|japanese variant|also written|cl:|lit\.|fig\.|\(?(?:classical|archaic|dialect|old|literary|slang|onom|cantonese|taiwan|bound form|loanword)\b)/i;

export function cedictSourcePath(): string {
  return createRequire(import.meta.url).resolve('hanzi/lib/data/cedict_ts.u8.js');
}

/** Parses the CEDICT text (`trad simp [pin1 yin1] /gloss/gloss/` per line). */
export function parseCedict(source: string): BilingualDictionary & { serialize(): string } {
  const stems = new Map<string, string>();
  const stemOnce = (word: string) => {
    let term = stems.get(word);
    if (term === undefined) {
      term = stem(word);
      stems.set(word, term);
    }
    return term;
  };
  const zhToEn = new Map<string, string>();
  const enToZh = new Map<string, string>();
  const readings = new Map<string, string>();
  let lineStart = 0;
  while (lineStart < source.length) {
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = source.length;
    const line = source.slice(lineStart, lineEnd);
    lineStart = lineEnd + 1;
    if (line.startsWith('#') || line.length < 5) continue;
    const firstSpace = line.indexOf(' ');
    const secondSpace = line.indexOf(' ', firstSpace + 1);
    const slash = line.indexOf('/');
    if (firstSpace < 0 || secondSpace < 0 || slash < 0) continue;
    const simplified = line.slice(firstSpace + 1, secondSpace);
    // A single character has many senses: only its first gloss counts, and it never stands
    // for an English word (锁 translates "lock" in a query, "lock" does not become 锁).
    const single = [...simplified].length === 1;
    if (single) {
      const pinyin = line.slice(secondSpace + 1, slash);
      const syllable = /\[([A-Za-z:]+)[1-5]?\]/.exec(pinyin)?.[1]?.toLowerCase().replace(':', '');
      const known = readings.get(simplified);
      if (syllable && !known) readings.set(simplified, syllable);
      else if (syllable && known && !known.split(' ').includes(syllable))
        readings.set(simplified, `${known} ${syllable}`);
    }
    const glosses = line
      .slice(slash + 1)
      .split('/')
      .map((gloss) => gloss.trim())
      .filter((gloss) => gloss && !META_GLOSS.test(gloss));
    const keywords: string[] = [];
    glosses.slice(0, single ? 2 : 3).forEach((gloss, index) => {
      const words = gloss
        .replace(/\([^)]*\)/g, ' ')
        .toLowerCase()
        .split(/[^a-z0-9'-]+/)
        .filter((word) => word.length > 1 && !GLOSS_STOP.has(word));
      // Long glosses are explanations, not translations: keep their words only for the first gloss.
      if (words.length === 0 || (index > 0 && words.length > 3)) return;
      for (const word of words.slice(0, 4)) {
        const term = stemOnce(word);
        if (!keywords.includes(term)) keywords.push(term);
      }
      if (words.length === 1 && index < 2 && !single) {
        const key = stemOnce(words[0]!);
        const known = enToZh.get(key);
        if (!known) enToZh.set(key, simplified);
        else if (!known.split(' ').includes(simplified)) enToZh.set(key, `${known} ${simplified}`);
      }
    });
    const name = transliteratedName(simplified, line.slice(secondSpace + 1, slash), glosses[0]);
    if (name) {
      const key = stemOnce(name.english);
      const known = enToZh.get(key);
      if (!known) enToZh.set(key, name.chinese);
      else if (!known.split(' ').includes(name.chinese)) enToZh.set(key, `${known} ${name.chinese}`);
    }
    if (keywords.length === 0) continue;
    const known = zhToEn.get(simplified);
    // Entries of a character after its first reading are rarer senses.
    if (single && known) continue;
    zhToEn.set(simplified, known ? `${known} ${keywords.join(' ')}` : keywords.join(' '));
  }
  return dictionaryOf(SortedTable.from(zhToEn), SortedTable.from(enToZh), SortedTable.from(readings));
}

/**
 * A proper noun whose gloss opens with its own pinyin (深圳市 [Shen1 zhen4 Shi4] "Shenzhen,
 * sub-provincial city…", 上海 "Shanghai municipality"): the English name stands for the
 * characters it spells — the whole headword, or the leading ones it covers (Shenzhen → 深圳).
 * Gloss-word lookup alone misses every such name, since its gloss is never one word.
 */
function transliteratedName(
  simplified: string,
  pinyinField: string,
  firstGloss: string | undefined,
): { english: string; chinese: string } | undefined {
  const open = pinyinField.indexOf('[');
  const close = pinyinField.indexOf(']');
  if (!firstGloss || open < 0 || close <= open) return undefined;
  const syllables = pinyinField.slice(open + 1, close).split(' ');
  if (!/^[A-Z]/.test(syllables[0] ?? '')) return undefined;
  const word = /^([A-Z][a-z]+)\b/.exec(firstGloss)?.[1];
  if (!word || word.length < 4) return undefined;
  const chars = [...simplified];
  if (chars.length !== syllables.length || chars.length < 2) return undefined;
  let spelled = '';
  for (let count = 0; count < syllables.length; count++) {
    spelled += syllables[count]!.toLowerCase().replace(/[0-9:]/g, '');
    if (spelled === word.toLowerCase())
      return count >= 1 ? { english: word.toLowerCase(), chinese: chars.slice(0, count + 1).join('') } : undefined;
    if (spelled.length >= word.length) return undefined;
  }
  return undefined;
}

function dictionaryOf(
  english: SortedTable,
  chinese: SortedTable,
  readings: SortedTable,
): BilingualDictionary & { serialize(): string } {
  const split = (value: string | undefined) => (value ? value.split(' ') : []);
  return {
    english: (word) => [...new Set(split(english.get(word)))].slice(0, 8),
    chinese: (word) =>
      split(chinese.get(word))
        .sort((a, b) => a.length - b.length)
        .slice(0, 6),
    readings: (char) => split(readings.get(char)),
    size: english.size,
    serialize: () => `${english.text}\u0000${chinese.text}\u0000${readings.text}`,
  };
}

/**
 * A string → string table as one sorted string and an offset array: a few MB where a Map of
 * 100 000 entries costs tens (what an idle gateway keeps once someone has searched).
 */
class SortedTable {
  private readonly starts: Uint32Array;

  /** `text`: lines `key\tvalue\n` sorted by key (as `from` writes them and the cache keeps them). */
  constructor(readonly text: string) {
    let count = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
    this.starts = new Uint32Array(count);
    let line = 0;
    for (let at = 0; at < text.length && line < count; line++) {
      this.starts[line] = at;
      at = text.indexOf('\n', at) + 1;
    }
  }

  static from(entries: Map<string, string>): SortedTable {
    const keys = [...entries.keys()].sort();
    return new SortedTable(keys.map((key) => `${key}\t${entries.get(key)}\n`).join(''));
  }

  get size(): number {
    return this.starts.length;
  }

  get(key: string): string | undefined {
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = this.starts[middle]!;
      const tab = this.text.indexOf('\t', start);
      const candidate = this.text.slice(start, tab);
      if (candidate === key) return this.text.slice(tab + 1, this.text.indexOf('\n', tab));
      if (candidate < key) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
}

/**
 * The dictionary for `path`: from the verified cache in `cacheDir` when there is one, else parsed
 * here (about a second; `prepareCedictCache` builds the cache off-thread first). A cache that
 * fails verification is ignored, never trusted — the next `prepareCedictCache` rewrites it.
 */
export function loadCedict(path: string = cedictSourcePath(), cacheDir?: string): BilingualDictionary {
  if (cacheDir) {
    const cached = readVerifiedCache(path, cacheDir);
    if (cached) return cached;
  }
  return parseCedictFile(path);
}

/** Reads the `module.exports = \`…\`` wrapper of the shipped file and parses its text. */
function parseCedictFile(path: string): BilingualDictionary & { serialize(): string } {
  const file = readFileSync(path, 'utf8');
  const open = file.indexOf('`');
  const close = file.lastIndexOf('`');
  if (open < 0 || close <= open) throw new Error(`CC-CEDICT data at ${path} is not in the expected format`);
  return parseCedict(file.slice(open + 1, close));
}

/**
 * Parses the source and writes the cache: `cacheDir` is made (0700, and refused unless it is
 * this user's and closed to others — a shared folder would let another local user poison the
 * tables), the file is written atomically under a header naming the format version, the source
 * file's size and mtime, and the SHA-256 of the tables.
 */
export async function writeCedictCache(path: string, cacheDir: string): Promise<void> {
  ensurePrivateDir(cacheDir);
  const source = statSync(path);
  const body = parseCedictFile(path).serialize();
  const header = cacheHeader(source.size, source.mtimeMs, sha256(body));
  await writeFileAtomic(join(cacheDir, CACHE_FILE), `${header}\n${body}`, 0o600);
}

/** The cached tables if the cache is this user's, of this format, of this source and intact; else undefined. */
export function readVerifiedCache(path: string, cacheDir: string): BilingualDictionary | undefined {
  const file = join(cacheDir, CACHE_FILE);
  if (!existsSync(file) || !isPrivate(cacheDir) || !isPrivate(file)) return undefined;
  const cached = readFileSync(file, 'utf8');
  const newline = cached.indexOf('\n');
  if (newline < 0) return undefined;
  const body = cached.slice(newline + 1);
  const source = statSync(path);
  if (cached.slice(0, newline) !== cacheHeader(source.size, source.mtimeMs, sha256(body))) return undefined;
  const tables = body.split('\u0000');
  if (tables.length !== 3 || !tables[0]) return undefined;
  return dictionaryOf(new SortedTable(tables[0]), new SortedTable(tables[1]!), new SortedTable(tables[2]!));
}

function cacheHeader(size: number, mtimeMs: number, digest: string): string {
  return `hearth-cedict-cache v${CACHE_VERSION} source ${size} ${Math.floor(mtimeMs)} sha256 ${digest}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!isPrivate(dir))
    throw new Error(`lexicon cache folder ${dir} must belong to this user and be closed to others (mode 0700)`);
}

/** Owned by this user and neither group- nor world-writable (POSIX; Windows has no such bits). */
function isPrivate(path: string): boolean {
  if (process.platform === 'win32') return true;
  const info = lstatSync(path);
  if (info.isSymbolicLink()) return false;
  return info.uid === process.getuid?.() && (info.mode & 0o022) === 0;
}

/**
 * Builds the on-disk cache in a worker thread when no valid one exists, so the one-time parse
 * (about a second, much more on a busy machine) never blocks the gateway's event loop;
 * `loadCedict` then reads the cache. A worker that fails leaves the parse to `loadCedict` itself.
 */
export async function prepareCedictCache(path: string, cacheDir: string): Promise<void> {
  if (readVerifiedHeader(path, cacheDir)) return;
  const worker = startModuleWorker(import.meta.url, 'cedict-worker', { path, cacheDir });
  await new Promise<void>((resolve) => {
    worker.once('error', () => resolve());
    worker.once('exit', () => resolve());
  });
}

/** A cheap "is the cache worth reading" check: right owner, format and source (the digest is checked on read). */
function readVerifiedHeader(path: string, cacheDir: string): boolean {
  const file = join(cacheDir, CACHE_FILE);
  try {
    if (!isPrivate(cacheDir) || !isPrivate(file)) return false;
    const head = readFileSync(file, 'utf8').slice(0, 200);
    const source = statSync(path);
    return head.startsWith(
      `hearth-cedict-cache v${CACHE_VERSION} source ${source.size} ${Math.floor(source.mtimeMs)} sha256 `,
    );
  } catch {
    return false;
  }
}

/**
 * The per-user cache folder for lexicon tables: `HEARTH_HOME/cache/lexicon` (Hearth's state
 * folder is already this user's own). Never a shared temp folder.
 */
export function lexiconCacheDir(hearthHome: string): string {
  return join(hearthHome, 'cache', 'lexicon');
}

const CACHE_FILE = 'cedict.txt';

/** Bumped when the derived tables change shape. */
const CACHE_VERSION = 5;
