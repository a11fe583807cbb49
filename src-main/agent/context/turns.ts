import type { AgentMessage } from '../messages.js';
import { estimateMessagesTokens } from './token-estimate.js';

/**
 * Splits history into turns: each starts at a user message and runs to the next. Leading
 * non-user messages (a compaction summary, notifications) form a turn of their own.
 * Engines keep or drop whole turns so a tool call never travels without its result.
 */
export function splitTurns(messages: readonly AgentMessage[]): AgentMessage[][] {
  const turns: AgentMessage[][] = [];
  let current: AgentMessage[] = [];
  for (const message of messages) {
    if (message.kind === 'user' && current.length > 0) {
      turns.push(current);
      current = [];
    }
    current.push(message);
  }
  if (current.length > 0) turns.push(current);
  return turns;
}

/**
 * Keeps the newest turns that fit `availableTokens`, plus a leading compaction summary when
 * it fits in half the budget (it carries everything older). Always keeps the newest turn: sending the
 * question without its context is worse than an overflow the runner can still handle.
 */
export function fitNewestTurns(
  messages: readonly AgentMessage[],
  availableTokens: number,
): { messages: AgentMessage[]; omittedCount: number } {
  const turns = splitTurns(messages);
  const summaryTurn = turns[0]?.[0]?.kind === 'compaction_summary' ? turns.shift() : undefined;
  // The summary carries everything older, so it is reserved first (unless it alone would crowd out recent turns).
  const summaryTokens = summaryTurn ? estimateMessagesTokens(summaryTurn) : 0;
  const keepSummary = summaryTurn !== undefined && summaryTokens <= availableTokens / 2;
  const kept: AgentMessage[][] = [];
  let used = keepSummary ? summaryTokens : 0;
  for (let i = turns.length - 1; i >= 0; i -= 1) {
    const turn = turns[i] as AgentMessage[];
    const cost = estimateMessagesTokens(turn);
    if (kept.length > 0 && used + cost > availableTokens) break;
    kept.unshift(turn);
    used += cost;
  }
  const out = kept.flat();
  if (summaryTurn && keepSummary) out.unshift(...summaryTurn);
  return { messages: out, omittedCount: messages.length - out.length };
}
