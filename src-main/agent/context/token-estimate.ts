import { countO200kTokens, o200kTokensUpperBound } from '../../base/o200k-tokens.js';
import type { AgentMessage } from '../messages.js';

/** Estimates run over the real o200k vocabulary, then get a margin: other providers tokenize less kindly. */
export const TOKEN_SAFETY_MARGIN = 1.2;

/** Roles, separators and tool-call framing that every provider adds per message. */
const PER_MESSAGE_OVERHEAD_TOKENS = 4;

/** Raw o200k token count, no margin. */
export function countRawTokens(text: string): number {
  return countO200kTokens(text);
}

// The system prompt and the tool list are counted again on every model call, and are the same
// text from turn to turn: the last few long texts' counts are kept (a string key costs one pass
// over its characters, tokenizing ~40 of them).
const LONG_TEXT_CHARS = 1_000;
const LONG_TEXTS_KEPT = 16;
const longTextTokens = new Map<string, number>();

/** Token estimate with the safety margin applied (what budgets compare against). */
export function estimateTokens(text: string): number {
  if (text.length < LONG_TEXT_CHARS) return Math.ceil(countRawTokens(text) * TOKEN_SAFETY_MARGIN);
  const known = longTextTokens.get(text);
  if (known !== undefined) {
    // Most recently used last, so the oldest goes first.
    longTextTokens.delete(text);
    longTextTokens.set(text, known);
    return known;
  }
  const tokens = Math.ceil(countRawTokens(text) * TOKEN_SAFETY_MARGIN);
  longTextTokens.set(text, tokens);
  if (longTextTokens.size > LONG_TEXTS_KEPT) longTextTokens.delete(longTextTokens.keys().next().value!);
  return tokens;
}

/**
 * An upper bound of `estimateTokens(text)` that needs no tokenizer (its UTF-8 byte count, with
 * the same margin): a budget it fits is fitted by the exact count too.
 */
export function tokensUpperBound(text: string): number {
  return Math.ceil(o200kTokensUpperBound(text) * TOKEN_SAFETY_MARGIN);
}

/** The text a message contributes to a prompt, as the model would see it. */
export function renderMessageText(message: AgentMessage): string {
  switch (message.kind) {
    case 'user':
      return message.hiddenPrefix ? `${message.hiddenPrefix}\n${message.text}` : message.text;
    case 'assistant':
    case 'notification':
    case 'steering':
      return message.text;
    case 'tool_call':
      return `${message.toolName} ${safeJson(message.input)}`;
    case 'tool_result':
      return message.output;
    case 'compaction_summary':
      return message.summary;
  }
}

// Tokenizing is the expensive part of budgeting; messages are immutable once written, so cache by object.
const messageCache = new WeakMap<AgentMessage, number>();
const messageBoundCache = new WeakMap<AgentMessage, number>();

export function estimateMessageTokens(message: AgentMessage): number {
  const cached = messageCache.get(message);
  if (cached !== undefined) return cached;
  const tokens = estimateTokens(renderMessageText(message)) + messageFramingTokens(message);
  messageCache.set(message, tokens);
  return tokens;
}

export function estimateMessagesTokens(messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/**
 * An upper bound of `estimateMessageTokens(message)` without the tokenizer: the exact figure
 * when the message was counted before (tighter, and free), else its text's byte bound.
 */
export function messageTokensUpperBound(message: AgentMessage): number {
  const exact = messageCache.get(message);
  if (exact !== undefined) return exact;
  const cached = messageBoundCache.get(message);
  if (cached !== undefined) return cached;
  const tokens = tokensUpperBound(renderMessageText(message)) + messageFramingTokens(message);
  messageBoundCache.set(message, tokens);
  return tokens;
}

export function messagesTokensUpperBound(messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const message of messages) total += messageTokensUpperBound(message);
  return total;
}

/** What a message costs beside its text: framing, and attachments (not tokenized, so exact and bound agree). */
function messageFramingTokens(message: AgentMessage): number {
  let tokens = PER_MESSAGE_OVERHEAD_TOKENS;
  // Attachments: images cost a provider-specific flat amount; files count by their base64 length.
  if (message.kind === 'user' && message.attachments) {
    for (const attachment of message.attachments) {
      tokens += attachment.kind === 'image' ? 1_000 : Math.ceil((attachment.data.length * 0.75) / 4);
    }
  }
  if (message.kind === 'tool_result' && message.images) tokens += message.images.length * 1_000;
  return tokens;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
