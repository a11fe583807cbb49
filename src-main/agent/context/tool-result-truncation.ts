import type { AgentMessage, ToolResultMessage } from '../messages.js';
import { TOKEN_SAFETY_MARGIN } from './token-estimate.js';

/** ARCHITECTURE.md constants: ≤ 30% of context, ≤ 16 000 chars, ≥ 2 000 head chars kept. */
export const TOOL_RESULT_MAX_CHARS = 16_000;
export const TOOL_RESULT_MAX_CONTEXT_SHARE = 0.3;
export const TOOL_RESULT_MIN_HEAD_CHARS = 2_000;
/**
 * Share of the kept characters given to the end of the output. Always kept: the exit status,
 * the error and the summary line sit there (`seq 1 30000; cat /nope` ends in `No such file`
 * and `[exit code 1]`), and an error word list cannot know every program's way of failing.
 */
export const TOOL_RESULT_TAIL_SHARE = 0.35;
/** A cut moves to the nearest line break when one lies within this share of its budget. */
const LINE_SNAP_SHARE = 0.2;
/** Rough chars per token for prose and code; divided by the safety margin so we err small. */
const CHARS_PER_TOKEN = 4;

/** The most characters one tool result may keep for a model with this context window. */
export function toolResultCharLimit(contextWindowTokens: number, maxChars = TOOL_RESULT_MAX_CHARS): number {
  if (!Number.isFinite(contextWindowTokens) || contextWindowTokens <= 0) {
    throw new RangeError(`contextWindowTokens must be a positive number, got ${String(contextWindowTokens)}`);
  }
  const byContext = Math.floor(
    (contextWindowTokens * TOOL_RESULT_MAX_CONTEXT_SHARE * CHARS_PER_TOKEN) / TOKEN_SAFETY_MARGIN,
  );
  return Math.max(TOOL_RESULT_MIN_HEAD_CHARS, Math.min(maxChars, byContext));
}

export interface TruncatedText {
  text: string;
  truncated: boolean;
  originalChars: number;
  /** Characters of the original kept (marker excluded). */
  keptChars: number;
  headChars: number;
  tailChars: number;
}

/**
 * Cuts one tool output to `limitChars` of the original: the head and the tail, always, with
 * the middle replaced by a marker that says how much was cut (characters and lines) and how
 * to read it. Cuts fall on line breaks when one is near, so the model sees whole lines.
 */
export function truncateToolOutput(text: string, limitChars: number): TruncatedText {
  const originalChars = text.length;
  if (originalChars <= limitChars) {
    return { text, truncated: false, originalChars, keptChars: originalChars, headChars: originalChars, tailChars: 0 };
  }
  const limit = Math.max(TOOL_RESULT_MIN_HEAD_CHARS, limitChars);
  const tailBudget = Math.floor(limit * TOOL_RESULT_TAIL_SHARE);
  const headBudget = limit - tailBudget;
  const headEnd = snapHeadEnd(text, headBudget);
  const tailStart = snapTailStart(text, originalChars - tailBudget);
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const cut = tailStart - headEnd;
  const firstCutLine = lineAt(text, headEnd);
  const lastCutLine = lineAt(text, tailStart - 1);
  const totalLines = lineAt(text, originalChars - 1);
  const lines = totalLines > 1 ? ` (lines ${firstCutLine}–${lastCutLine} of ${totalLines})` : '';
  const how =
    totalLines > 1
      ? `read them with a narrower request: that line range (\`sed -n '${firstCutLine},${lastCutLine}p'\`, or a file read with offset and limit), a grep, or the output saved to a file and read in parts`
      : 'read them with a narrower request (a byte range, a filter, or the output saved to a file and read in parts)';
  const marker = `\n[… ${cut} of ${originalChars} characters cut here${lines}; ${how} …]\n`;
  return {
    text: head + marker + tail,
    truncated: true,
    originalChars,
    keptChars: head.length + tail.length,
    headChars: head.length,
    tailChars: tail.length,
  };
}

/** End of the head: just after the last line break within the budget, if one is near its end. */
function snapHeadEnd(text: string, budget: number): number {
  const lastBreak = text.lastIndexOf('\n', budget - 1);
  return lastBreak >= 0 && lastBreak + 1 >= budget * (1 - LINE_SNAP_SHARE) ? lastBreak + 1 : budget;
}

/** Start of the tail: just after the first line break at or past `from`, if one is near it. */
function snapTailStart(text: string, from: number): number {
  const budget = text.length - from;
  const nextBreak = text.indexOf('\n', from - 1);
  return nextBreak >= 0 && nextBreak + 1 <= from + budget * LINE_SNAP_SHARE ? nextBreak + 1 : from;
}

/** 1-based line number of the character at `index`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

export function truncateToolResultMessage(message: ToolResultMessage, limitChars: number): ToolResultMessage {
  const result = truncateToolOutput(message.output, limitChars);
  if (!result.truncated) return message;
  return {
    ...message,
    output: result.text,
    // A result cut twice still reports the size the tool really produced.
    truncated: {
      originalChars: message.truncated?.originalChars ?? result.originalChars,
      keptChars: result.keptChars,
    },
  };
}

export interface ToolResultTruncation {
  messages: AgentMessage[];
  truncatedCount: number;
  savedChars: number;
}

/** Applies the per-result limit to every tool result; other messages pass through untouched. */
export function truncateToolResults(
  messages: readonly AgentMessage[],
  options: { contextWindowTokens: number; maxChars?: number },
): ToolResultTruncation {
  const limit = toolResultCharLimit(options.contextWindowTokens, options.maxChars);
  let truncatedCount = 0;
  let savedChars = 0;
  const out = messages.map((message) => {
    if (message.kind !== 'tool_result') return message;
    const next = truncateToolResultMessage(message, limit);
    if (next !== message) {
      truncatedCount += 1;
      savedChars += message.output.length - next.output.length;
    }
    return next;
  });
  return { messages: out, truncatedCount, savedChars };
}
