/**
 * Every reason the import from OpenClaw / Hermes (src-main/import) gives on a plan or report item,
 * as a stable code with the params its words take. The gateway also sends an English `reason` (the
 * CLI's terminal report, older clients); the Control UI words the code in the person's language, so
 * a Chinese view never shows an English reason. `detail` params are text from elsewhere (an OS
 * error code, a parser's message, the other tool's own setting) and are shown verbatim.
 */
type NoParams = Record<string, never>;

export interface ImportReasonParamsByCode {
  // A file of the other tool that could not be used.
  'unreadable-file': { detail: string };
  'invalid-json': { detail: string };
  'invalid-yaml-config': { detail: string };
  'unreadable-config': { detail: string };
  'invalid-json-config': { detail: string };
  'unreadable-session-index': { detail: string };
  'invalid-json-session-index': { detail: string };
  vanished: NoParams;
  // What is brought over, with a note.
  'replaces-starter': NoParams;
  'unreadable-lines': { count: number };
  'unmatched-events': { count: number };
  'unreadable-lines-and-unmatched-events': { unreadable: number; unmatched: number };
  'key-to-secret-store': NoParams;
  'key-to-secret-store-unknown-provider': { provider: string };
  'switched-off': NoParams;
  'same-key-stored': { profile: string };
  // Hearth has something different under that name, and keeps it.
  'workspace-file-differs': { file: string; source: string };
  'provider-differs': { target: string; kind: string; baseURL: string };
  'profile-exists': { profile: string };
  'default-model-differs': { model: string };
  'agent-differs': { agent: string };
  'cron-job-differs': { name: string };
  // Not importable.
  'no-messages': { unreadable: number; unmatched: number };
  'unknown-agent': { agent: string };
  'one-shot-passed': NoParams;
  'schedule-not-understood': { detail: string };
  'cron-no-message': NoParams;
  'invalid-agent-id': NoParams;
  'invalid-agent-id-sessions': NoParams;
  'model-unresolved': NoParams;
  'custom-provider-no-base-url': NoParams;
  'custom-provider-incomplete': NoParams;
  'not-a-provider-key': NoParams;
  'allowlist-not-comparable': NoParams;
  'sqlite-sessions': NoParams;
  'no-adapter': { api: string };
  'invalid-provider': { detail: string };
  'key-from-environment': { reference: string };
  'oauth-not-moved': NoParams;
  'credential-without-key': { type: string };
  'invalid-binding': { detail: string };
  'channel-login-not-moved': { channel: string };
  'channel-logins-folder': NoParams;
  // After apply.
  'apply-failed': { detail: string };
}

export type ImportReasonCode = keyof ImportReasonParamsByCode;

/** What a reason's words are filled with, as it travels. */
export type ImportReasonParams = Record<string, string | number>;

// A Record over the union, so a code added above without being listed here does not build.
const listed: Record<ImportReasonCode, true> = {
  'unreadable-file': true,
  'invalid-json': true,
  'invalid-yaml-config': true,
  'unreadable-config': true,
  'invalid-json-config': true,
  'unreadable-session-index': true,
  'invalid-json-session-index': true,
  vanished: true,
  'replaces-starter': true,
  'unreadable-lines': true,
  'unmatched-events': true,
  'unreadable-lines-and-unmatched-events': true,
  'key-to-secret-store': true,
  'key-to-secret-store-unknown-provider': true,
  'switched-off': true,
  'same-key-stored': true,
  'workspace-file-differs': true,
  'provider-differs': true,
  'profile-exists': true,
  'default-model-differs': true,
  'agent-differs': true,
  'cron-job-differs': true,
  'no-messages': true,
  'unknown-agent': true,
  'one-shot-passed': true,
  'schedule-not-understood': true,
  'cron-no-message': true,
  'invalid-agent-id': true,
  'invalid-agent-id-sessions': true,
  'model-unresolved': true,
  'custom-provider-no-base-url': true,
  'custom-provider-incomplete': true,
  'not-a-provider-key': true,
  'allowlist-not-comparable': true,
  'sqlite-sessions': true,
  'no-adapter': true,
  'invalid-provider': true,
  'key-from-environment': true,
  'oauth-not-moved': true,
  'credential-without-key': true,
  'invalid-binding': true,
  'channel-login-not-moved': true,
  'channel-logins-folder': true,
  'apply-failed': true,
};

export const importReasonCodes = Object.keys(listed) as readonly ImportReasonCode[];

const codeSet: ReadonlySet<string> = new Set(importReasonCodes);

/** A code this build has words for (another gateway, newer or older, may send one it has not). */
export function isImportReasonCode(code: string): code is ImportReasonCode {
  return codeSet.has(code);
}
