import type { AgentMessage, CompactionSummaryMessage } from '../messages.js';
import { collectIdentifiers, findMissingIdentifiers, reinsertMissing } from './identifiers.js';
import { estimateMessagesTokens } from './token-estimate.js';

export type CompactionReason = 'preemptive' | 'timeout' | 'overflow' | 'manual';

/** The model call that writes a summary; injected so tests and benches use real or loopback models. */
export type Summarizer = (
  input: { messages: AgentMessage[]; requiredIdentifiers: string[]; instructions: string },
  signal?: AbortSignal,
) => Promise<string>;

export interface CompactHistoryOptions {
  messages: readonly AgentMessage[];
  summarizer: Summarizer;
  reason: CompactionReason;
  /** User turns kept verbatim at the end (default 4). */
  keepRecentTurns?: number;
  /** Called with the span before it is summarised (the daily memory flush); errors are logged by the caller. */
  beforeSummarize?: (span: AgentMessage[]) => Promise<void>;
  now: () => number;
  newId: () => string;
  signal?: AbortSignal;
}

export type CompactionOutcome =
  | {
      status: 'compacted';
      reason: CompactionReason;
      messages: AgentMessage[];
      summary: CompactionSummaryMessage;
      compactedCount: number;
      /** Identifiers the summarizer dropped and we put back. */
      reinserted: string[];
      tokensBefore: number;
      tokensAfter: number;
    }
  | { status: 'skipped'; reason: CompactionReason; messages: AgentMessage[]; detail: string }
  /** The summary call failed: the original messages stand, the turn goes on, compaction retries later. */
  | { status: 'failed'; reason: CompactionReason; messages: AgentMessage[]; error: string; retryLater: true };

export const DEFAULT_KEEP_RECENT_TURNS = 4;

export const SUMMARY_INSTRUCTIONS = [
  'Summarise the conversation so far for your own future reference; the user will not see it.',
  'Keep: what the user wants, facts they told you, decisions made and why, work done, open questions, next steps.',
  'Copy every required identifier verbatim (paths, symbols, URLs, numbers); do not paraphrase them.',
  'Be terse: bullet points, no pleasantries.',
].join('\n');

/**
 * Index of the first message kept verbatim: the start of the Nth user turn from the end.
 * Cutting only at user messages keeps tool calls and their results together.
 */
export function recentTurnsStart(messages: readonly AgentMessage[], keepRecentTurns: number): number {
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i]?.kind === 'user') {
      seen += 1;
      if (seen === keepRecentTurns) return i;
    }
  }
  return 0;
}

/** Summarises everything before the recent turns into one summary message, keeping identifiers. */
export async function compactHistory(options: CompactHistoryOptions): Promise<CompactionOutcome> {
  const { messages, reason } = options;
  const keep = options.keepRecentTurns ?? DEFAULT_KEEP_RECENT_TURNS;
  if (!Number.isInteger(keep) || keep < 1) {
    throw new RangeError(`keepRecentTurns must be an integer ≥ 1, got ${String(keep)}`);
  }
  const cut = recentTurnsStart(messages, keep);
  const span = messages.slice(0, cut);
  const recent = messages.slice(cut);
  // A lone earlier summary is already as small as it gets.
  if (span.length === 0 || (span.length === 1 && span[0]?.kind === 'compaction_summary')) {
    return { status: 'skipped', reason, messages: [...messages], detail: 'nothing old enough to compact' };
  }

  const { identifiers, decisions } = collectIdentifiers(span);
  const required = [...identifiers, ...decisions];
  try {
    if (options.beforeSummarize) await options.beforeSummarize(span);
    const raw = await options.summarizer(
      { messages: span, requiredIdentifiers: required, instructions: SUMMARY_INSTRUCTIONS },
      options.signal,
    );
    if (typeof raw !== 'string' || raw.trim().length === 0) throw new Error('summarizer returned an empty summary');
    const missingIds = findMissingIdentifiers(raw, identifiers);
    const missingDecisions = findMissingIdentifiers(raw, decisions);
    const summaryText = reinsertMissing(raw, missingIds, missingDecisions);
    const summary: CompactionSummaryMessage = {
      kind: 'compaction_summary',
      id: options.newId(),
      ts: options.now(),
      summary: summaryText,
      replaces: span.flatMap((m) => (m.kind === 'compaction_summary' ? [...m.replaces, m.id] : [m.id])),
      identifiers,
    };
    const next = [summary, ...recent];
    return {
      status: 'compacted',
      reason,
      messages: next,
      summary,
      compactedCount: span.length,
      reinserted: [...missingIds, ...missingDecisions],
      tokensBefore: estimateMessagesTokens(messages),
      tokensAfter: estimateMessagesTokens(next),
    };
  } catch (error) {
    return {
      status: 'failed',
      reason,
      messages: [...messages],
      error: error instanceof Error ? error.message : String(error),
      retryLater: true,
    };
  }
}
