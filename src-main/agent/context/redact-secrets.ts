/**
 * Secrets never reach a trace file, even with the debug flag on: traces use the one
 * catalogue every writer shares (src-main/base/secret-redaction.ts).
 */
export { REDACTED, redactSecrets } from '../../base/secret-redaction.js';
