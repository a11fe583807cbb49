import { createRequire } from 'node:module';

/**
 * Token counts over the o200k vocabulary (gpt-tokenizer). Its tables take ~68 MB of memory and
 * ~230 ms to load at a cold start, and most budgets are settled without them (a byte count
 * bounds the token count: agent/context/token-budget.ts). They load on the first exact count,
 * or by `loadTokenizer` in idle time once a budget came close enough that one is likely.
 * One copy for the whole process: the CommonJS build, so the load can happen synchronously
 * inside a count.
 */
type CountTokens = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;

let counter: CountTokens | undefined;

export function loadTokenizer(): CountTokens {
  counter ??= (createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens: CountTokens })
    .countTokens;
  return counter;
}

/** Whether the tables are in memory (so an exact count costs no load). */
export function isTokenizerLoaded(): boolean {
  return counter !== undefined;
}

// Text may legitimately contain "<|endoftext|>"; count it as plain text instead of throwing.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Raw o200k token count of plain text, no margin. */
export function countO200kTokens(text: string): number {
  if (text.length === 0) return 0;
  return loadTokenizer()(text, PLAIN_TEXT);
}

/**
 * An upper bound of `countO200kTokens(text)` without the tables: o200k is byte-level BPE, so
 * every token stands for at least one UTF-8 byte of the text (a lone surrogate is encoded as
 * U+FFFD, 3 bytes, by both `Buffer.byteLength` and the tokenizer's encoder).
 */
export function o200kTokensUpperBound(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
