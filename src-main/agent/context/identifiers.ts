import type { AgentMessage } from '../messages.js';
import { splitSentences } from './sentences.js';
import { renderMessageText } from './token-estimate.js';

/**
 * Identifiers a summary must not lose: the things users complain a compacted agent
 * "forgot" (paths, names of code symbols, URLs, exact numbers, decisions).
 */
export interface CollectedIdentifiers {
  /** Exact strings; verified verbatim in the summary. */
  identifiers: string[];
  /** Decision sentences; verified verbatim too and re-inserted when missing. */
  decisions: string[];
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`)\]]+/g;
// Absolute, home-relative, dot-relative and bare relative paths with an extension.
const PATH_PATTERN =
  /(?:~|\.{1,2})?\/[\w.@-]+(?:\/[\w.@-]+)+|\b[\w.-]+(?:\/[\w.@-]+)+\.[A-Za-z0-9]{1,8}\b|\b[\w-]+\.(?:ts|tsx|js|mjs|json|md|py|rs|go|yaml|yml|toml|sh|txt|csv|sql|lock)\b/g;
const BACKTICK_PATTERN = /`([^`\n]{2,80})`/g;
// camelCase, PascalCase with an inner capital, snake_case, SCREAMING_CASE, dotted members.
const SYMBOL_PATTERN =
  /\b(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Z]{2,}[A-Z0-9]*(?:_[A-Z0-9]+)+)(?:\.[A-Za-z_][\w]*)*\b(?:\(\))?/g;
// Numbers worth keeping: 3+ digits, decimals, versions, ids with separators. "2" or "4" are noise.
const NUMBER_PATTERN = /\bv?\d+(?:[.:_-]\d+)+\b|\b\d{3,}\b/g;
const DECISION_PATTERN =
  /\b(?:decided|decision|we will|we'll|let's go with|agreed|going with|chose|choose to|settled on|remember that)\b|决定|记住/i;
const MAX_DECISION_CHARS = 240;

/**
 * Ids by kind (URLs, paths, code spans, symbols, then numbers — the order in which losing them
 * hurts most), each kind in order of first appearance; capped so a pathological span cannot
 * balloon the summary prompt.
 */
export function collectIdentifiers(messages: readonly AgentMessage[], maxIdentifiers = 400): CollectedIdentifiers {
  const kinds = {
    carried: new Set<string>(),
    url: new Set<string>(),
    path: new Set<string>(),
    code: new Set<string>(),
    symbol: new Set<string>(),
    number: new Set<string>(),
  };
  const decisions = new Set<string>();
  const add = (set: Set<string>, value: string) => {
    const trimmed = value.replace(/[.,;:!?]+$/, '');
    if (trimmed.length >= 3) set.add(trimmed);
  };
  for (const message of messages) {
    if (message.kind === 'compaction_summary') {
      // Identifiers an earlier compaction promised to keep stay promised.
      for (const id of message.identifiers) add(kinds.carried, id);
    }
    const text = renderMessageText(message);
    for (const match of text.matchAll(URL_PATTERN)) add(kinds.url, match[0]);
    for (const match of text.matchAll(PATH_PATTERN)) add(kinds.path, match[0]);
    for (const match of text.matchAll(BACKTICK_PATTERN)) if (match[1]) add(kinds.code, match[1]);
    for (const match of text.matchAll(SYMBOL_PATTERN)) add(kinds.symbol, match[0]);
    for (const match of text.matchAll(NUMBER_PATTERN)) add(kinds.number, match[0]);
    if (message.kind === 'user' || message.kind === 'assistant') {
      for (const sentence of splitSentences(message.text)) {
        if (DECISION_PATTERN.test(sentence)) decisions.add(sentence.slice(0, MAX_DECISION_CHARS));
      }
    }
  }
  const identifiers = new Set<string>();
  for (const set of Object.values(kinds)) for (const id of set) identifiers.add(id);
  return { identifiers: [...identifiers].slice(0, maxIdentifiers), decisions: [...decisions] };
}

export function collectIdentifiersFromText(text: string): string[] {
  return collectIdentifiers([{ kind: 'notification', id: 'text', ts: 0, text }]).identifiers;
}

/** Which required strings the summary does not contain verbatim. */
export function findMissingIdentifiers(summary: string, required: readonly string[]): string[] {
  return required.filter((id) => !summary.includes(id));
}

/**
 * Appends what the summarizer dropped, verbatim, so the next turns can still see it.
 * Deterministic order keeps the compacted prompt stable for caches.
 */
export function reinsertMissing(summary: string, missingIdentifiers: string[], missingDecisions: string[]): string {
  let out = summary.trimEnd();
  if (missingDecisions.length > 0) {
    out += `\n\nDecisions (kept verbatim):\n${missingDecisions.map((d) => `- ${d}`).join('\n')}`;
  }
  if (missingIdentifiers.length > 0) {
    out += `\n\nIdentifiers (kept verbatim): ${missingIdentifiers.join(', ')}`;
  }
  return out;
}
