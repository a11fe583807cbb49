import { scrubSecrets } from '../base/secret-redaction.js';

/**
 * Secrets never reach memory files: memory's view of the one catalogue
 * (src-main/base/secret-redaction.ts), with the kinds removed so callers can count them.
 */
export function redactSecrets(text: string): { text: string; redacted: string[] } {
  const result = scrubSecrets(text);
  return { text: result.text, redacted: result.kinds };
}
