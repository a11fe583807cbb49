import { createRequire } from 'node:module';

/**
 * Token counts over the o200k vocabulary (gpt-tokenizer). Its tables take ~66 MB of memory and
 * ~70 ms to load, and an idle gateway counts nothing: they are loaded on the first count, or by
 * `loadTokenizer` when the first client connects (the runtime's warm-up), off the turn path.
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

// Text may legitimately contain "<|endoftext|>"; count it as plain text instead of throwing.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Raw o200k token count of plain text, no margin. */
export function countO200kTokens(text: string): number {
  if (text.length === 0) return 0;
  return loadTokenizer()(text, PLAIN_TEXT);
}
