import type { AgentMessage, ToolResultMessage } from '../messages.js';
import { TOKEN_SAFETY_MARGIN } from './token-estimate.js';

/** ARCHITECTURE.md constants: ≤ 30% of context, ≤ 16 000 chars, ≥ 2 000 head chars kept. */
export const TOOL_RESULT_MAX_CHARS = 16_000;
export const TOOL_RESULT_MAX_CONTEXT_SHARE = 0.3;
export const TOOL_RESULT_MIN_HEAD_CHARS = 2_000;
/** Share of the kept characters given to the tail when the tail reports an error. */
export const TOOL_RESULT_ERROR_TAIL_SHARE = 0.3;
/** Where we look for an error at the end of an output. */
const ERROR_TAIL_WINDOW = 2_000;
/** Rough chars per token for prose and code; divided by the safety margin so we err small. */
const CHARS_PER_TOKEN = 4;

const ERROR_PATTERN = /\b(error|exception|traceback|panic|fatal|failed|stack trace)\b/i;

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

export function tailHoldsError(text: string): boolean {
  return ERROR_PATTERN.test(text.slice(-ERROR_TAIL_WINDOW));
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
 * Cuts one tool output to `limitChars`: the head always (≥ 2 000 chars), plus the tail when
 * the tail holds an error, because that is usually the line the model needs.
 */
export function truncateToolOutput(text: string, limitChars: number): TruncatedText {
  const originalChars = text.length;
  if (originalChars <= limitChars) {
    return { text, truncated: false, originalChars, keptChars: originalChars, headChars: originalChars, tailChars: 0 };
  }
  const limit = Math.max(TOOL_RESULT_MIN_HEAD_CHARS, limitChars);
  const tailChars = tailHoldsError(text)
    ? Math.min(Math.floor(limit * TOOL_RESULT_ERROR_TAIL_SHARE), limit - TOOL_RESULT_MIN_HEAD_CHARS)
    : 0;
  const headChars = limit - tailChars;
  const cut = originalChars - headChars - tailChars;
  const marker = `\n\n[… ${cut} of ${originalChars} characters cut from this tool result; re-run the tool with a narrower request to see them …]\n\n`;
  const head = text.slice(0, headChars);
  const tail = tailChars > 0 ? text.slice(originalChars - tailChars) : '';
  return {
    text: head + marker + tail,
    truncated: true,
    originalChars,
    keptChars: headChars + tailChars,
    headChars,
    tailChars,
  };
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
