/** A file over its budget keeps its head 70% and tail 20%; the marker says where and how much was cut. */
export const BOOTSTRAP_HEAD_SHARE = 0.7;
export const BOOTSTRAP_TAIL_SHARE = 0.2;
export const DEFAULT_BOOTSTRAP_MAX_CHARS = 20_000;
export const DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 60_000;

export interface TruncatedFile {
  text: string;
  truncated: boolean;
  rawChars: number;
  /** Characters of the file kept (marker excluded). */
  keptChars: number;
  headChars: number;
  tailChars: number;
}

export function truncateBootstrapText(name: string, text: string, maxChars: number): TruncatedFile {
  if (!Number.isInteger(maxChars) || maxChars < 0) {
    throw new RangeError(`maxChars for ${name} must be a non-negative integer, got ${String(maxChars)}`);
  }
  const rawChars = text.length;
  if (rawChars <= maxChars) {
    return { text, truncated: false, rawChars, keptChars: rawChars, headChars: rawChars, tailChars: 0 };
  }
  const headChars = Math.floor(maxChars * BOOTSTRAP_HEAD_SHARE);
  const tailChars = Math.floor(maxChars * BOOTSTRAP_TAIL_SHARE);
  const cut = rawChars - headChars - tailChars;
  const marker = `\n\n[… ${cut} characters of ${name} cut here to fit the budget; read the file for the rest …]\n\n`;
  return {
    text: text.slice(0, headChars) + marker + (tailChars > 0 ? text.slice(rawChars - tailChars) : ''),
    truncated: true,
    rawChars,
    keptChars: headChars + tailChars,
    headChars,
    tailChars,
  };
}
